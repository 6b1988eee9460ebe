"""Build bench/data/support_fresh.jsonl: quotes located whitespace-insensitively, stored exact."""
import json, re, sys
from pathlib import Path
D = Path("bench/data/support_fresh")
T = {n: (D / f"{n}.txt").read_text(encoding="utf-8") for n in ("apache-2.0", "mpl-2.0", "psf")}

def exact(doc, q):
    pat = r"(?:\s|\*)+".join(re.escape(w) for w in q.split())
    m = re.search(pat, T[doc])
    if not m:
        sys.exit(f"NOT FOUND in {doc}: {q}")
    s = m.group(0)
    assert 15 <= len(" ".join(s.split())) <= 600, (len(s), q)
    return s

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
out = []
for i, (kind, claim, keys) in enumerate(PAIRS, 1):
    doc = Q[keys[0]][0]
    out.append({"id": f"fresh-{i:03d}", "claim": claim, "quotes": [exact(*Q[k]) for k in keys],
                "label": "keep" if kind.startswith("keep") else "remove", "kind": kind,
                "source_doc": f"bench/data/support_fresh/{doc}.txt", "note": ""})
Path("bench/data/support_fresh.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in out), encoding="utf-8")
from collections import Counter
print(len(out), Counter(r["kind"] for r in out))
