"""Build bench/data/support_fresh.jsonl and support_fresh2.jsonl (hand-written claim-support pairs on licence
texts outside the pool; see bench/data/support_fresh/README.md). Run from the checkout root:
    python bench/make_support_fresh.py
Each quote is located in its source whitespace-insensitively (a box's "*" between lines counts as space) and
stored as the file's exact substring; a quote not found, or outside 15..600 characters, stops the build."""
import json, re, sys
from pathlib import Path
D = Path("bench/data/support_fresh")
T = {p.stem: p.read_text(encoding="utf-8") for p in D.glob("*.txt")}

def exact(doc: str, q: str) -> str:
    """The exact substring of source ``doc`` that quote ``q`` matches (words in order, any whitespace or "*"
    between them). Exits when it is not found; asserts 15..600 characters once whitespace is collapsed."""
    pat = r"(?:\s|\*)+".join(re.escape(w) for w in q.split())
    m = re.search(pat, T[doc])
    if not m:
        sys.exit(f"NOT FOUND in {doc}: {q}")
    s = m.group(0)
    assert 15 <= len(" ".join(s.split())) <= 600, (len(s), q)
    return s



def build(q: dict, pairs: list, prefix: str, out_name: str) -> None:
    """Write ``pairs`` ((kind, claim, quote keys) rows; quotes from ``q``: key -> (doc, text)) as JSONL rows
    ``{id, claim, quotes, label, kind, source_doc, note}`` to ``out_name``, ids ``<prefix>-001`` on."""
    out = []
    for i, (kind, claim, keys) in enumerate(pairs, 1):
        doc = q[keys[0]][0]
        out.append({"id": f"{prefix}-{i:03d}", "claim": claim, "quotes": [exact(*q[k]) for k in keys],
                    "label": "keep" if kind.startswith("keep") else "remove", "kind": kind,
                    "source_doc": f"bench/data/support_fresh/{doc}.txt", "note": ""})
    Path(out_name).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in out), encoding="utf-8")
    from collections import Counter
    print(out_name, len(out), Counter(r["kind"] for r in out))


# ---- set 1 (Apache-2.0, MPL-2.0, PSF), committed 2026-12-02 before its first run
A, M, P = "apache-2.0", "mpl-2.0", "psf"
Q = {
 "a_deriv": (A, "Derivative Works shall not include works that remain separable from, or merely link (or bind by name) to the interfaces of, the Work and Derivative Works thereof."),
 "a_notice": (A, "The contents of the NOTICE file are for informational purposes only and do not modify the License."),
 "a_contrib": (A, "Unless You explicitly state otherwise, any Contribution intentionally submitted for inclusion in the Work by You to the Licensor shall be under the terms and conditions of this License, without any additional terms or conditions."),
 "a_tm": (A, "This License does not grant permission to use the trade names, trademarks, service marks, or product names of the Licensor, except as required for reasonable and customary use in describing the origin of the Work and reproducing the content of the NOTICE file."),
 "a_liab": (A, "In no event and under no legal theory, whether in tort (including negligence), contract, or otherwise, unless required by applicable law (such as deliberate and grossly negligent acts) or agreed to in writing, shall any Contributor be liable to You for damages"),
 "a_behalf": (A, "You may act only on Your own behalf and on Your sole responsibility, not on behalf of any other Contributor, and only if You agree to indemnify, defend, and hold each Contributor harmless"),
 "a_supersede": (A, "nothing herein shall supersede or modify the terms of any separate license agreement you may have executed with Licensor regarding such Contributions."),
 "a_warr": (A, "Licensor provides the Work (and each Contributor provides its Contributions) on an \"AS IS\" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied"),
 "a_use": (A, "you may not use this file except in compliance with the License."),
 "a_modif": (A, "You may reproduce and distribute copies of the Work or Derivative Works thereof in any medium, with or without modifications, and in Source or Object form, provided that You meet the following conditions:"),
 "a_modif_a": (A, "(a) You must give any other recipients of the Work or Derivative Works a copy of this License; and"),
 "m_only": (M, "The licenses granted in this Section 2 are the only rights granted under this License."),
 "m_implied": (M, "No additional rights or licenses will be implied from the distribution or licensing of Covered Software under this License."),
 "m_nopatent": (M, "no patent license is granted by a Contributor:"),
 "m_nopatent_a": (M, "(a) for any code that a Contributor has removed from Covered Software; or"),
 "m_tm": (M, "This License does not grant any rights in the trademarks, service marks, or logos of any Contributor (except as may be necessary to comply with the notice requirements in Section 3.4)."),
 "m_fair": (M, "This License is not intended to limit any rights You have under applicable copyright doctrines of fair use, fair dealing, or other equivalents."),
 "m_alter": (M, "You may not attempt to alter or restrict the recipients' rights in the Source Code Form."),
 "m_charge": (M, "at a charge no more than the cost of distribution to the recipient"),
 "m_notices": (M, "You may not remove or alter the substance of any license notices (including copyright notices, patent notices, disclaimers of warranty, or limitations of liability) contained within the Source Code Form of the Covered Software, except that You may alter any license notices to the extent required to remedy known factual inaccuracies."),
 "m_behalf": (M, "However, You may do so only on Your own behalf, and not on behalf of any Contributor."),
 "m_60": (M, "if such Contributor fails to notify You of the non-compliance by some reasonable means prior to 60 days after You have come back into compliance."),
 "m_defect": (M, "You (not any Contributor) assume the cost of any necessary servicing, repair, or correction."),
 "m_noauth": (M, "No use of any Covered Software is authorized under this License except under this disclaimer."),
 "m_death": (M, "This limitation of liability shall not apply to liability for death or personal injury resulting from such party's negligence to the extent applicable law prohibits such limitation."),
 "m_courts": (M, "Any litigation relating to this License may be brought only in the courts of a jurisdiction where the defendant maintains its principal place of business"),
 "m_drafter": (M, "Any law or regulation which provides that the language of a contract shall be construed against the drafter shall not be used to construe this License against a Contributor."),
 "m_steward": (M, "no one other than the license steward has the right to modify or publish new versions of this License."),
 "m_reformed": (M, "If any provision of this License is held to be unenforceable, such provision shall be reformed only to the extent necessary to make it enforceable."),
 "m_terminate": (M, "The rights granted under this License will terminate automatically if You fail to comply with any of its terms."),
 "p_gpl": (P, "All Python licenses, unlike the GPL, let you distribute a modified version without making your changes open source."),
 "p_liab": (P, "PSF SHALL NOT BE LIABLE TO LICENSEE OR ANY OTHER USERS OF PYTHON FOR ANY INCIDENTAL, SPECIAL, OR CONSEQUENTIAL DAMAGES OR LOSS AS A RESULT OF MODIFYING, DISTRIBUTING, OR OTHERWISE USING PYTHON"),
 "p_tm": (P, "This License Agreement does not grant permission to use PSF trademarks or trade name in a trademark sense to endorse or promote products or services of Licensee, or any third party."),
 "p_nowarr": (P, "PSF MAKES NO REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED."),
 "p_fee": (P, "Permission to use, copy, modify, and/or distribute this software for any purpose with or without fee is hereby granted."),
 "p_cwi": (P, "IN NO EVENT SHALL STICHTING MATHEMATISCH CENTRUM BE LIABLE FOR ANY SPECIAL, INDIRECT OR CONSEQUENTIAL DAMAGES"),
 "p_1_6_1": (P, "According to Richard Stallman, 1.6.1 is not GPL-compatible, because its license has a choice of law clause."),
}
PAIRS = [
 # keep: faithful claims, negation reworded or restated positively
 ("keep_paraphrase", "Works that merely link to the interfaces of the Work are not Derivative Works.", ["a_deriv"]),
 ("keep_positive_restatement", "Works that remain separable from the Work are excluded from Derivative Works.", ["a_deriv"]),
 ("keep_paraphrase", "The NOTICE file is informational only; it does not change the License.", ["a_notice"]),
 ("keep_positive_restatement", "The NOTICE file's contents leave the License unmodified.", ["a_notice"]),
 ("keep_paraphrase", "Unless the contributor says otherwise, a Contribution submitted to the Licensor is governed by this License with no additional terms.", ["a_contrib"]),
 ("keep_paraphrase", "The License gives no permission to use the Licensor's trademarks, other than for reasonable and customary use in describing the origin of the Work.", ["a_tm"]),
 ("keep_positive_restatement", "Using the Licensor's trade names requires more than this License, except for customary use describing the Work's origin.", ["a_tm"]),
 ("keep_paraphrase", "No Contributor is liable to You for damages, unless applicable law requires it or it was agreed in writing.", ["a_liab"]),
 ("keep_paraphrase", "Under no legal theory will a Contributor be liable to you for damages, absent a legal requirement or written agreement.", ["a_liab"]),
 ("keep_paraphrase", "When accepting such obligations you may act only on your own behalf, never on behalf of another Contributor.", ["a_behalf"]),
 ("keep_positive_restatement", "You must act on your own behalf and on your sole responsibility when accepting such obligations.", ["a_behalf"]),
 ("keep_paraphrase", "The License does not override a separate license agreement executed with the Licensor about Contributions.", ["a_supersede"]),
 ("keep_positive_restatement", "A separate license agreement executed with the Licensor regarding Contributions remains in force.", ["a_supersede"]),
 ("keep_paraphrase", "The Work is provided as is, with no warranties or conditions of any kind.", ["a_warr"]),
 ("keep_positive_restatement", "The Licensor disclaims all warranties and conditions for the Work.", ["a_warr"]),
 ("keep_paraphrase", "You cannot use the file unless you comply with the License.", ["a_use"]),
 ("keep_positive_restatement", "Using this file requires compliance with the License.", ["a_use"]),
 ("keep_two_quote", "Redistributing the Work, with or without modifications, requires giving other recipients a copy of this License.", ["a_modif", "a_modif_a"]),
 ("keep_paraphrase", "The only rights granted under the License are the licenses granted in Section 2.", ["m_only"]),
 ("keep_paraphrase", "Distributing Covered Software does not imply any additional rights or licenses.", ["m_implied"]),
 ("keep_two_quote", "A Contributor grants no patent license for code it has removed from Covered Software.", ["m_nopatent", "m_nopatent_a"]),
 ("keep_paraphrase", "The License grants no rights in the trademarks or logos of any Contributor, except as needed to comply with the notice requirements.", ["m_tm"]),
 ("keep_paraphrase", "The License is not meant to limit your fair use rights.", ["m_fair"]),
 ("keep_positive_restatement", "Your rights under fair use and fair dealing doctrines remain unaffected by the License.", ["m_fair"]),
 ("keep_paraphrase", "You are not allowed to try to restrict the recipients' rights in the Source Code Form.", ["m_alter"]),
 ("keep_positive_restatement", "You are prohibited from attempting to alter the recipients' rights in the Source Code Form.", ["m_alter"]),
 ("keep_paraphrase", "The charge for the Source Code Form may not exceed the cost of distribution to the recipient.", ["m_charge"]),
 ("keep_positive_restatement", "The charge is capped at the cost of distribution to the recipient.", ["m_charge"]),
 ("keep_paraphrase", "You must not remove license notices from the Source Code Form, though you may alter them to correct known factual inaccuracies.", ["m_notices"]),
 ("keep_paraphrase", "You may only do so on your own behalf and never on behalf of a Contributor.", ["m_behalf"]),
 ("keep_positive_restatement", "The Contributor, not You, bears no cost of servicing; You assume the cost of any necessary repair.", ["m_defect"]),
 ("keep_paraphrase", "Any necessary servicing or repair is at your cost, not any Contributor's.", ["m_defect"]),
 ("keep_paraphrase", "Use of Covered Software is authorized only under the disclaimer.", ["m_noauth"]),
 ("keep_paraphrase", "The limitation of liability does not cover liability for death or personal injury from a party's negligence where the law prohibits such a limitation.", ["m_death"]),
 ("keep_positive_restatement", "Liability for death or personal injury caused by negligence is excluded from the limitation where applicable law prohibits limiting it.", ["m_death"]),
 ("keep_paraphrase", "Litigation about the License can be brought only in the courts where the defendant has its principal place of business.", ["m_courts"]),
 ("keep_paraphrase", "The rule that a contract is construed against its drafter is not to be used against a Contributor.", ["m_drafter"]),
 ("keep_paraphrase", "Only the license steward may modify or publish new versions of the License.", ["m_steward"]),
 ("keep_positive_restatement", "Modifying or publishing new versions of the License is reserved to the license steward.", ["m_steward"]),
 ("keep_paraphrase", "An unenforceable provision is reformed no further than necessary to make it enforceable.", ["m_reformed"]),
 ("keep_paraphrase", "If you fail to comply with any term, your rights under the License terminate automatically.", ["m_terminate"]),
 ("keep_paraphrase", "Python licenses let you distribute a modified version without open-sourcing your changes, unlike the GPL.", ["p_gpl"]),
 ("keep_positive_restatement", "Under Python licenses, making your changes open source is not required to distribute a modified version.", ["p_gpl"]),
 ("keep_paraphrase", "PSF is not liable to the Licensee for incidental, special or consequential damages from using Python.", ["p_liab"]),
 ("keep_paraphrase", "In no event will the PSF be liable to users of Python for consequential damages resulting from modifying or distributing it.", ["p_liab"]),
 ("keep_paraphrase", "The License Agreement gives no permission to use PSF trademarks to endorse or promote the Licensee's products.", ["p_tm"]),
 ("keep_paraphrase", "PSF makes no express or implied warranties.", ["p_nowarr"]),
 ("keep_positive_restatement", "PSF disclaims all representations and warranties, express or implied.", ["p_nowarr"]),
 ("keep_paraphrase", "The software may be used, copied and distributed for any purpose, with or without a fee.", ["p_fee"]),
 ("keep_paraphrase", "Stichting Mathematisch Centrum is never liable for special, indirect or consequential damages.", ["p_cwi"]),
 ("keep_paraphrase", "Richard Stallman considers 1.6.1 not compatible with the GPL because of its choice of law clause.", ["p_1_6_1"]),
 # remove: the claim contradicts its quotes
 ("remove_flipped", "Works that merely link to the interfaces of the Work count as Derivative Works.", ["a_deriv"]),
 ("remove_flipped", "The NOTICE file's contents modify the License.", ["a_notice"]),
 ("remove_flipped", "Contributions submitted to the Licensor carry additional terms beyond this License.", ["a_contrib"]),
 ("remove_flipped", "The License grants permission to use the Licensor's trademarks and product names.", ["a_tm"]),
 ("remove_flipped", "Contributors are liable to You for incidental and consequential damages.", ["a_liab"]),
 ("remove_scope", "You may act on behalf of other Contributors, but not on your own behalf.", ["a_behalf"]),
 ("remove_flipped", "The License supersedes any separate license agreement executed with the Licensor.", ["a_supersede"]),
 ("remove_flipped", "You may use the file even if you do not comply with the License.", ["a_use"]),
 ("remove_flipped", "Additional rights and licenses are implied from distributing Covered Software.", ["m_implied"]),
 ("remove_two_quote", "A Contributor grants a patent license for code it has removed from Covered Software.", ["m_nopatent", "m_nopatent_a"]),
 ("remove_flipped", "The License is intended to limit your fair use rights.", ["m_fair"]),
 ("remove_flipped", "You may alter the recipients' rights in the Source Code Form.", ["m_alter"]),
 ("remove_flipped", "The charge must be at least the cost of distribution to the recipient.", ["m_charge"]),
 ("remove_scope", "Any Contributor, not You, assumes the cost of necessary servicing and repair.", ["m_defect"]),
 ("remove_flipped", "The limitation of liability applies to liability for death or personal injury resulting from negligence.", ["m_death"]),
 ("remove_flipped", "The rule construing a contract against its drafter may be used to construe this License against a Contributor.", ["m_drafter"]),
 ("remove_flipped", "Anyone, not only the license steward, may publish new versions of the License.", ["m_steward"]),
 ("remove_flipped", "Python licenses, like the GPL, require your changes to be open source when you distribute a modified version.", ["p_gpl"]),
 ("remove_flipped", "PSF is liable to the Licensee for consequential damages resulting from using Python.", ["p_liab"]),
 ("remove_flipped", "The License Agreement grants permission to use PSF trademarks to promote the Licensee's products.", ["p_tm"]),
 ("remove_flipped", "The software may be distributed only without a fee.", ["p_fee"]),
 ("remove_flipped", "Richard Stallman considers 1.6.1 GPL-compatible.", ["p_1_6_1"]),
]
build(Q, PAIRS, "fresh", "bench/data/support_fresh.jsonl")

# ---- set 2 (OFL via STIX, DejaVu/Bitstream Vera, BSD-3 via pandas), written after set 1's errors were read and
# committed before its own first run
O, V, B = "ofl-stix", "dejavu", "bsd-3-pandas"
Q2 = {
 "o_sold": (O, "Neither the Font Software nor any of its individual components, in Original or Modified Versions, may be sold by itself."),
 "o_bundled": (O, "Original or Modified Versions of the Font Software may be bundled, redistributed and/or sold with any software, provided that each copy contains the above copyright notice and this license."),
 "o_rfn": (O, "No Modified Version of the Font Software may use the Reserved Font Name(s) unless explicit written permission is granted by the corresponding Copyright Holder."),
 "o_primary": (O, "This restriction only applies to the primary font name as presented to the users."),
 "o_names": (O, "The name(s) of the Copyright Holder(s) or the Author(s) of the Font Software shall not be used to promote, endorse or advertise any Modified Version, except to acknowledge the contribution(s) of the Copyright Holder(s) and the Author(s) or with their explicit written permission."),
 "o_other": (O, "must be distributed entirely under this license, and must not be distributed under any other license."),
 "o_document": (O, "The requirement for fonts to remain under this license does not apply to any document created using the Font Software."),
 "o_void": (O, "This license becomes null and void if any of the above conditions are not met."),
 "o_freely": (O, "The OFL allows the licensed fonts to be used, studied, modified and redistributed freely as long as they are not sold by themselves."),
 "v_renamed": (V, "only if the fonts are renamed to names not containing either the words \"Bitstream\" or the word \"Vera\"."),
 "v_sold": (V, "The Font Software may be sold as part of a larger software package but no copy of one or more of the Font Software typefaces may be sold by itself."),
 "v_gnome": (V, "the names of Gnome, the Gnome Foundation, and Bitstream Inc., shall not be used in advertising or otherwise to promote the sale, use or other dealings in this Font Software without prior written authorization from the Gnome Foundation or Bitstream Inc., respectively."),
 "v_liable": (V, "IN NO EVENT SHALL BITSTREAM OR THE GNOME FOUNDATION BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY"),
 "v_included": (V, "The above copyright and trademark notices and this permission notice shall be included in all copies of one or more of the Font Software typefaces."),
 "b_neither": (B, "Neither the name of the copyright holder nor the names of its contributors may be used to endorse or promote products derived from this software without specific prior written permission."),
 "b_redistrib": (B, "Redistribution and use in source and binary forms, with or without modification, are permitted provided that the following conditions are met:"),
 "b_retain": (B, "Redistributions of source code must retain the above copyright notice, this list of conditions and the following disclaimer."),
 "b_disclaimed": (B, "THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE DISCLAIMED."),
 "b_liable": (B, "IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES"),
}
PAIRS2 = [
 ("keep_paraphrase", "The Font Software and its components cannot be sold on their own.", ["o_sold"]),
 ("keep_paraphrase", "No component of the Font Software may be sold by itself, whether original or modified.", ["o_sold"]),
 ("keep_positive_restatement", "The Font Software may only be sold together with other software, not alone.", ["o_sold"]),
 ("keep_paraphrase", "Modified versions of the Font Software may be sold with software if each copy contains the copyright notice and the license.", ["o_bundled"]),
 ("keep_paraphrase", "A Modified Version may not use a Reserved Font Name without explicit written permission from the Copyright Holder.", ["o_rfn"]),
 ("keep_positive_restatement", "Using a Reserved Font Name in a Modified Version requires the Copyright Holder's explicit written permission.", ["o_rfn"]),
 ("keep_paraphrase", "The restriction applies only to the primary font name shown to users.", ["o_primary"]),
 ("keep_paraphrase", "The Copyright Holders' names may not be used to advertise a Modified Version, except to acknowledge their contribution or with their written permission.", ["o_names"]),
 ("keep_positive_restatement", "Promoting a Modified Version with the Authors' names requires their explicit written permission, unless it only acknowledges their contribution.", ["o_names"]),
 ("keep_paraphrase", "The Font Software must not be distributed under any license other than this one.", ["o_other"]),
 ("keep_positive_restatement", "The Font Software must be distributed exclusively under this license.", ["o_other"]),
 ("keep_paraphrase", "Documents created with the Font Software do not have to remain under this license.", ["o_document"]),
 ("keep_positive_restatement", "Documents created using the fonts are exempt from the requirement to remain under the license.", ["o_document"]),
 ("keep_paraphrase", "If the conditions are not met, the license becomes void.", ["o_void"]),
 ("keep_paraphrase", "The fonts may be used and modified freely, provided they are not sold by themselves.", ["o_freely"]),
 ("keep_paraphrase", "The fonts may be modified only if they are renamed so that the names contain neither Bitstream nor Vera.", ["v_renamed"]),
 ("keep_positive_restatement", "Modified fonts must be renamed to names that exclude the words Bitstream and Vera.", ["v_renamed"]),
 ("keep_paraphrase", "The Font Software can be sold as part of a larger software package, but a copy of a typeface cannot be sold alone.", ["v_sold"]),
 ("keep_paraphrase", "The names of Gnome and Bitstream may not be used to promote the Font Software without their prior written authorization.", ["v_gnome"]),
 ("keep_positive_restatement", "Promoting the Font Software with the Gnome Foundation's name requires its prior written authorization.", ["v_gnome"]),
 ("keep_paraphrase", "Bitstream and the Gnome Foundation are never liable for any claim or damages.", ["v_liable"]),
 ("keep_paraphrase", "Every copy of the Font Software typefaces must include the copyright notices and the permission notice.", ["v_included"]),
 ("keep_paraphrase", "The copyright holder's name cannot be used to promote derived products without specific prior written permission.", ["b_neither"]),
 ("keep_paraphrase", "Neither the copyright holder's name nor its contributors' names may be used to endorse derived products unless specific written permission is given first.", ["b_neither"]),
 ("keep_positive_restatement", "Endorsing products derived from the software with the contributors' names requires specific prior written permission.", ["b_neither"]),
 ("keep_paraphrase", "Use and redistribution in source or binary form, modified or not, are permitted if the conditions are met.", ["b_redistrib"]),
 ("keep_two_quote", "Redistributing the source code, with or without modification, is permitted only if it retains the copyright notice.", ["b_redistrib", "b_retain"]),
 ("keep_paraphrase", "The implied warranties of merchantability and fitness for a particular purpose are disclaimed.", ["b_disclaimed"]),
 ("keep_positive_restatement", "There is no implied warranty of fitness for a particular purpose.", ["b_disclaimed"]),
 ("keep_paraphrase", "The copyright holder and contributors are not liable for any direct or consequential damages.", ["b_liable"]),
 ("remove_flipped", "The Font Software may be sold by itself.", ["o_sold"]),
 ("remove_flipped", "A Modified Version may use a Reserved Font Name without the Copyright Holder's permission.", ["o_rfn"]),
 ("remove_scope", "The restriction applies to every font name except the primary one.", ["o_primary"]),
 ("remove_flipped", "The Authors' names may be used to advertise any Modified Version.", ["o_names"]),
 ("remove_flipped", "The Font Software may be distributed under another license.", ["o_other"]),
 ("remove_flipped", "Documents created using the Font Software must remain under this license.", ["o_document"]),
 ("remove_flipped", "The fonts may be modified without being renamed.", ["v_renamed"]),
 ("remove_scope", "A copy of a typeface may be sold by itself, but not as part of a larger software package.", ["v_sold"]),
 ("remove_flipped", "The names of Gnome and Bitstream may be used to promote the Font Software without written authorization.", ["v_gnome"]),
 ("remove_flipped", "Bitstream is liable for damages arising from the Font Software.", ["v_liable"]),
 ("remove_flipped", "The contributors' names may be used to endorse derived products without permission.", ["b_neither"]),
 ("remove_flipped", "The implied warranties of merchantability are not disclaimed.", ["b_disclaimed"]),
 ("remove_flipped", "The copyright holder is liable for consequential damages.", ["b_liable"]),
]

build(Q2, PAIRS2, "fresh2", "bench/data/support_fresh2.jsonl")
