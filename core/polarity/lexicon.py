"""Word lists and phrase rewrites of the polarity check (English and Spanish legal drafting).

Hand-written, not learnt: every entry is a general fact of English or Spanish grammar or of
contract drafting (a negation cue, a comparative, an exception marker), never a word of a
particular evaluation pair. No installable library marks negation scope offline: spaCy's
English models are not on PyPI, negspacy needs one, and NLTK/stanza download their data at
run time (checked 2026-12-01), so the scope rules in :mod:`core.polarity.scope` use these lists.

Phrases are rewritten to marker tokens before tokenizing (:data:`PHRASES`, applied in order,
longest first where they overlap):

* ``zzneg`` — a sentential negation ("in no event", "en ningún caso", "no longer", "fails to",
  "deja de");
* ``zzle`` — an upper bound ("not more than", "no later than" (a deadline), "shall not
  exceed", "at most", "capped at", "less than", "below", "within 30 days", "no más de",
  "como máximo");
* ``zzge`` — a lower bound or a plain comparative ("not less than", "at least", "more than",
  "exceeds", "later than", "no menos de", "al menos"). A bound negates none of the words it
  governs ("no later than day 5" states day 5); its *direction* is compared with the other
  text's bounds ("less than six months" against "not less than six months");
* ``zzexc`` — an exception that closes a negation ("unless", "except", "other than",
  "save as", "salvo", "a menos que", "sino"): what was negated before it becomes
  conditional, what follows it is what the rule requires;
* ``zzonly`` — "only if / only when / solo si …": what precedes it in its clause is conditional;
* idioms whose negation carries no polarity ("not only", "without limitation", "whether or
  not", "sin perjuicio", "No. 5") are deleted.
"""

from __future__ import annotations

import re

_N = r"(?:\d|\(|one\b|two\b|three\b|four\b|five\b|six\b|seven\b|eight\b|nine\b|ten\b|fifteen\b|twenty|thirty|" \
     r"forty|fifty|sixty|ninety|a\s+period\b|the\s+period\b|un\s+plazo\b|el\s+plazo\b|los\b|las\b)"

_SER = r"(?:(?:ser[áa]n?|es|son|sea|sean|podr[áa]n?\s+ser|deber[áa]n?\s+ser)\s+)?"

PHRASES: list[tuple[re.Pattern[str], str]] = [(re.compile(p, re.IGNORECASE), r) for p, r in [
    # idioms: no polarity
    (r"\bnot\s+only\b|\bno\s+s[óo]lo\b|\bno\s+solamente\b|\bwhether\s+or\s+not\b", " "),
    # an elliptical "or not" closing a phrase ("modified or not, are permitted" = "whether modified or not"),
    # Spanish "o no" (2026-12-02, fifth session)
    (r"\bor\s+not\b(?=\s*(?:[,.;:)]|$))|\bo\s+no\b(?=\s*(?:[,.;:)]|$))", " "),
    (r"\b(?:including\s+)?(?:but\s+)?(?:without\s+(?:limitation|limiting|prejudice)|not\s+limited\s+to)\b", " "),
    (r"\bsin\s+(?:perjuicio|limitaci[óo]n)\b|\bno\s+obstante\b|\bsin\s+que\s+ello\b", " , "),
    (r"\bno\s*\.\s*(?=\d)|\bn[º°]\s*(?=\d)|\bno\s+(?=\d)", " "),
    (r"\bnotwithstanding\b", " , "),
    # sentential negations written as a phrase
    (r"\b(?:in|under)\s+no\s+(?:event|case|way|circumstances?|manner)\b|\bat\s+no\s+time\b|\bby\s+no\s+means\b"
     r"|\bno\s+longer\b|\bfail(?:s|ed|ing)?\s+to\b|\bdej[ae]n?\s+de\b", " zzneg "),
    (r"\b(?:en|bajo)\s+ning[úu]n\s+(?:caso|momento|supuesto|concepto|modo)\b|\bde\s+ning[úu]n\s+modo\b"
     r"|\bde\s+ninguna\s+(?:manera|forma)\b|\bya\s+no\b", " zzneg "),
    # absence of a duty ("need not X", "is not required to X", "has no obligation to X"): X is left to the
    # party -- neither required nor forbidden; not the prohibition "shall not X" / "is required not to X"
    (r"\bneed\s+not\b|\b(?:do|does|did|shall|will)\s+not\s+(?:need|have)\s+to\b"
     r"|\bnot\s+(?:be\s+)?(?:required|obliged|obligated|compelled)\s+to\b|\bunder\s+no\s+obligation\s+to\b"
     r"|\b(?:has|have|had|shall\s+have|will\s+have)\s+no\s+(?:obligation|duty)\s+to\b"
     r"|\bno\s+(?:est[áa]|estar[áa]n?|est[áa]n|ser[áa]n?)\s+obligad[oa]s?\s+a\b"
     r"|\bno\s+(?:tiene|tienen|tendr[áa]n?)\s+que\b"
     r"|\bno\s+necesita(?:n|r[áa]n?)?\b", " zzopt "),
    # bounds: upper bound = negation of what follows; lower bound / plain comparative = none
    (r"\bno[t]?\s+(?:be\s+)?(?:less|fewer|lower|shorter|earlier|sooner)\s+than\b|\bat\s+(?:the\s+)?least\b"
     r"|\b(?:a\s+)?minimum\s+of\b|\bno\s+" + _SER + r"(?:menos|inferior|menor)\s+(?:del?|que|al?)\b|\bal\s+menos\b"
     r"|\bcomo\s+m[íi]nimo\b|\bpor\s+lo\s+menos\b", " zzge "),
    (r"\bno[t]?\s+(?:be\s+)?(?:more|greater|later|higher|longer)\s+than\b|\bnot\s+(?:to\s+)?exceed(?:ing|s)?\b"
     r"|\bat\s+(?:the\s+)?most\b|\b(?:a\s+)?maximum\s+of\b|\bcapped\s+at\b|\blimited\s+to\b"
     r"|\blimitad[oa]s?\s+a\b|\bup\s+to\s+(?=\S*\d)"
     r"|\b(?:less|fewer|lower|shorter|earlier)\s+than\b|\bbelow\b|\bwithin\s+" + _N +
     r"|\bno\s+" + _SER + r"(?:m[áa]s|superior|mayor|posterior)\s+(?:tarde\s+)?(?:del?|que|al?)\b"
     r"|\ba\s+m[áa]s\s+tardar\b"
     r"|\bcomo\s+m[áa]ximo\b|\b(?:menos|inferior|menor)\s+(?:del?|que|al?)\b|\bdentro\s+del?\s+" + _N, " zzle "),
    (r"\b(?:more|greater|later|higher|longer)\s+than\b|\bexceed(?:s|ed|ing)?\b|\bin\s+excess\s+of\b|\babove\b"
     r"|\b(?:m[áa]s|superior|mayor|posterior)\s+(?:tarde\s+)?(?:del?|que|al?)\b|\bexced(?:e|er|an|a|en)\b", " zzge "),
    # a permission written as a predicate is the modal "may": "is (not) permitted / allowed / entitled /
    # authorized to X" = "may (not) X", "has the right to X" = "may X" (else "permitted" is the predicate and
    # the negation lands on the subject, as in the passive ban "assignment is not permitted")
    (r"\b(?:is|are|shall\s+be|will\s+be|be)\s+(not\s+)?(?:permitted|allowed|entitled|authori[sz]ed|free)\s+to\b",
     r" may \1"),
    (r"\b(?:has|have|shall\s+have|will\s+have)\s+the\s+right\s+to\b", " may "),
    # a ban written as a predicate with its act: "is prohibited / barred / precluded from X-ing" = "may not X",
    # and "is not prohibited from X-ing" = "may X" (the gerund's stem is the act's; before a noun,
    # "barred from employment discrimination", the lexical cue "barred" reads it)
    (r"\b(?:is|are|shall\s+be|will\s+be|be)\s+not\s+(?:prohibited|barred|precluded)\s+from\b(?=\s+\w+ing\b)", " may "),
    (r"\b(?:is|are|shall\s+be|will\s+be|be)\s+(?:prohibited|barred|precluded)\s+from\b(?=\s+\w+ing\b)", " may not "),
    (r"\b(?:est[áa]n?|estar[áa]n?|ser[áa]n?)\s+(?:permitid|autorizad|facultad)[oa]s?\s+(?:a|para)\b"
     r"|\b(?:tiene|tienen|tendr[áa]n?)\s+(?:el\s+)?derecho\s+a\b", " podrá "),
    # "absent" before its object is the preposition "without" ("absent the consent of"), not the adjective
    (r"(?<!is )(?<!are )(?<!be )\babsent\s+(?=[a-z])", " without "),
    # conditional clauses written as a phrase: "in the event (that) X," = "if X,"
    (r"\bin\s+the\s+event\s+(?:that\s+|of\s+)?|\bin\s+case\s+(?=\w)(?!of\b)", " if "),
    # "to the extent (that) X" / "insofar as X" = "if X" (2026-12-02, fifth session): "shall not apply to A to the
    # extent applicable law prohibits it" negates "apply", not what the law does
    # Not after a comma: "shall not, to the extent permitted by law, be liable" is a parenthesis inside the
    # negation, and an "if" there would end the clause (and the negation) at its closing comma.
    # Nor after "except" / "save" / "only" / "but": "except to the extent that X" is an exception, read as one.
    (r"(?<!,)(?<!,\s)(?<!except\s)(?<!save\s)(?<!only\s)(?<!but\s)(?<!solely\s)"
     r"\bto\s+the\s+extent\s+(?:that\s+)?(?!necessary\b|required\b|possible\b|practicable\b)"
     r"|(?<!,)(?<!,\s)(?<!except\s)(?<!only\s)\bin\s*so(?:\s+)?far\s+as\b", " if "),
    # a restriction to a set states the set: "use is restricted to the Approved Use" = "may use only for it"
    (r"\b(?:restricted|confined)\s+(?:solely\s+|exclusively\s+)?to\b", " zzonly "),
    # a predicative "non-" adjective is a sentential negation: "is non-refundable" = "is not refundable"
    (r"\b(is|are|be|was|were|remain|remains|and|or)\s+non[-\u2010\u2011]?(?=[a-z]{4,})", r"\1 not "),
    # and so is a predicative "un-" participle or "irrelevant" (2026-12-02 afternoon, "warn"): "rights remain
    # unaffected by X" = "are not affected by X" (= "X shall not affect the rights", read as the passive it is);
    # without the rewrite "unaffected" matched "affect" only as a prefixed word and its subject stayed stated
    (r"\b(is|are|be|was|were|remain|remains|stay|stays)\s+un(?!der)(?=[a-z]{5,}ed\b)", r"\1 not "),
    (r"\b(is|are|be|was|were|remain|remains)\s+irrelevant\b", r"\1 not relevant"),
    # "separate from" / "apart from" as a predicate: "kept separate from X" = "not commingled with X"
    (r"\bseparate(?:d|ly)?\s+from\b", " zzlex "),
    # exceptions and conditions
    (r"\bother\s+than\b|\bapart\s+from\b|\bdistint[oa]s?\s+de\b", " zzother "),
    (r"\bunless\b|\buntil\b|\bhasta\s+que\b|\bexcept(?:\s+(?:as|for|that|in|to|where|when|with|by|on|upon))?\b"
     r"|\bsave\s+(?:as|for|that|where|with)\b|\bexcluding\b|\bbut\s+for\b"
     r"|\bsalvo(?:\s+que)?\b|\bexcepto(?:\s+que)?\b|\ba\s+(?:menos|no\s+ser)\s+que\b|\bcon\s+excepci[óo]n\s+de\b"
     r"|\bsino\b", " zzexc "),
    (r"\b(?:only|solely|exclusively)\s+(?=if|when|where|with|upon|after|on|in|by|to|from|as|for|once|until|at)\b"
     r"|\b(?:s[óo]lo|solamente|[úu]nicamente|exclusivamente)\s+(?=si|cuando|con|en|por|a|de|mediante|tras|previa)\b",
     " zzonly "),
    (r"\bfree\s+(?:of|from)\b|\blibres?\s+de\b|\bcarecen?\s+de\b|\boutside\s+(?:of\s+)?|\bfuera\s+de\b", " zzlex "),
]]

RULES_OFF: set[str] = set()
"""Names of reader rules switched off, for the rule ablation of ``bench/support.py --ablate`` only
(always empty in the app): see :data:`RULES`."""

RULES = ("list_item", "subordinate", "coordinated_head", "proviso", "and_that", "relative", "deontic",
         "object_no", "exception_pending", "new_subject", "light_verb", "finite_verb", "passive_agent",
         "in_the_event", "restricted_to", "predicative_non", "separate_from", "head_compare", "role_restricted",
         "condition_flipped", "prefix_non", "widened", "permission_modal", "ban_from", "absent", "contact_clause",
         "reduced_relative", "to_the_extent")
"""The rules :data:`RULES_OFF` can switch off (added to the reader on 2026-12-02; see bench/README.md,
"rule ablation"): each names one rule of :mod:`core.polarity.scope` or :mod:`core.polarity.compare`."""

_PHRASE_RULE_STARTS = (("deontic", r"\bneed\s+not"), ("in_the_event", r"\bin\s+the\s+event"),
                       ("to_the_extent", r"(?<!,)(?<!,\s)(?<!except\s)"),
                       ("restricted_to", r"\b(?:restricted|confined)"), ("predicative_non", r"\b(is|are|be|"),
                       ("separate_from", r"\bseparate"), ("permission_modal", r"\b(?:is|are|shall\s+be|will\s+be|be)\s+(not"),
                       ("permission_modal", r"\b(?:has|have"), ("permission_modal", r"\b(?:est"),
                       ("ban_from", r"\b(?:is|are|shall\s+be|will\s+be|be)\s+not\s+(?:prohibited"),
                       ("ban_from", r"\b(?:is|are|shall\s+be|will\s+be|be)\s+(?:prohibited"), ("absent", r"(?<!is )"))
PHRASE_RULE = {i: name for i, (pattern, _) in enumerate(PHRASES) for name, start in _PHRASE_RULE_STARTS
               if pattern.pattern.startswith(start)}
"""Index in :data:`PHRASES` → rule name, for the phrases :data:`RULES_OFF` can switch off."""

NEGATION = frozenset({"not", "never", "cannot", "zzneg", "nunca", "jamás", "jamas", "tampoco"})
"""Sentential negation cues: they negate the rest of their clause."""

CONTINUING = frozenset({"nor", "ni"})
""""neither A nor B": inside a negation it continues it; at the start of a clause it negates it."""

NEG_DETERMINERS = frozenset({
    "neither", "none", "nothing", "nobody", "ningún", "ningun", "ninguno", "ninguna", "ningunos", "ningunas",
    "nadie", "nada",
})
"""Negative determiners and pronouns: "no party may …" negates the predicate, not the subject.
English "no" is one too; Spanish "no" is a sentential cue ("no podrá")."""

WITHOUT = frozenset({"without", "sin"})
"""Outside a negation a short negation of its object; inside one ("shall not … without Y") an exception."""

NEGATION_WORDS = NEGATION | CONTINUING | NEG_DETERMINERS | WITHOUT | frozenset({"no", "non"})
"""Every word above that negates, and "no"/"non" standing alone: what a question's wording must keep
("terminate without cause", "sin causa"; :mod:`core.clauses`, :func:`core.docrefs.strip_reference`)."""

LEXICAL = re.compile(
    r"^(?:exclud(?:e|es|ed)|disclaim(?:s|ed)?|prohibit(?:s|ed)?|forbid(?:s|den)?|preclud(?:e|es|ed)|prevent(?:s|ed)?|"
    r"restrict(?:s|ed)?|refrain(?:s|ed)?|reliev(?:e|es|ed)|ceas(?:e|es|ed)|barred|exempt(?:ed)?|"
    r"excluid[oa]s?|excluye[n]?|prohibid[oa]s?|prohíbe[n]?|prohibe[n]?|impide[n]?|exent[oa]s?|zzlex)$"
)
"""Verbs and participles that negate what follows them ("is excluded from" = "does not include",
"shall not be restricted from buying" = "may buy"). Only when written in lower case in running
text: a capitalised "Restricted Period" is a defined term."""

MODALS = frozenset({
    "shall", "will", "may", "must", "can", "could", "should", "would", "might", "is", "are", "was", "were", "be",
    "been", "being",
    "has", "have", "had", "does", "do", "did", "means", "mean", "significa", "significan",
    "podrá", "podrán", "podra", "podran", "puede", "pueden", "deberá", "deberán", "debe", "deben",
    "será", "serán", "es", "son", "está", "están", "tendrá", "tendrán", "tiene", "tienen", "ha", "han", "habrá",
    "queda", "quedan", "se",
})
"""Auxiliaries and modals: after "no X" / "neither X" they end the subject and start the negated predicate."""

BOUNDARIES = frozenset({
    "but", "however", "although", "though", "whereas", "provided", "if", "when", "whenever", "where", "while",
    "because", "which", "who", "whom", "whose",
    "pero", "aunque", "mientras", "si", "cuando", "donde", "porque", "que", "cual", "cuales", "quien", "quienes",
    "cuyo", "cuya",
})
"""Words that end a negation's scope: a new clause, a condition or a relative clause starts."""

THAT_STARTS_CLAUSE = frozenset({
    "the", "a", "an", "it", "such", "any", "this", "these", "those", "is", "are", "was", "were", "shall", "will",
    "may", "has", "have", "he", "she", "they", "we", "you", "i", "its", "their", "no", "not", "there", "each",
    "either", "neither", "all", "if", "in", "zzneg",
})
""""that" ends a scope when a clause follows it ("agree that the Company will"), not as a determiner ("that term")."""

SPANISH = frozenset({"el", "la", "los", "las", "del", "que", "y", "en", "se", "por", "con", "para", "una", "podrá",
                     "será", "sin", "al", "su", "sus", "o"})
ENGLISH = frozenset({"the", "of", "and", "to", "is", "shall", "be", "not", "any", "or", "this", "that", "will",
                     "may", "by", "for", "with", "party"})

STRONG_MODALS = frozenset({"shall", "will", "may", "must", "can", "could", "should", "would", "might",
                           "podrá", "podrán", "podra", "podran", "puede", "pueden", "deberá", "deberán", "debe",
                           "deben"})
"""A modal after the negated words of a clause starts a new verb phrase: "a person who is not a
party [may] enforce" — the relative clause's negation ends there."""

CONDITIONS = frozenset({
    "need", "needs", "needed", "require", "requires", "required", "requirement", "requirements", "conditional",
    "condition", "conditions", "conditioned", "prerequisite", "precondition", "subject", "necesita", "necesitan",
    "requiere", "requieren", "requisito", "condición", "condicion", "sujeto", "sujeta", "zzexc", "zzonly",
    "only", "solely", "exclusively", "solo", "sólo", "solamente", "únicamente", "unicamente", "exclusivamente",
})
"""Words that state a condition: a claim holding one may restate "shall not X without Y" as
"X requires Y", so the quote's conditional words are not compared with it."""

RESTATEMENTS = frozenset({
    "confidential", "confidentially", "confidentiality", "secret", "private", "exempt", "excluded", "exclude",
    "prohibited", "barred", "forbidden", "prevented", "restricted", "capped", "limited", "remain", "remains",
    "retain", "retains", "survive", "survives", "cease", "ceases", "lack", "lacks", "absent",
    "void", "invalid", "only", "solely", "exclusively", "outside", "except", "unless", "refrain", "avoid", "omit",
    "confidencial", "confidenciales", "secreto", "libre", "exento", "excluido", "excluida", "prohibido", "prohibida",
    "limitado", "limitada", "subsiste", "subsisten", "mantiene", "conserva", "solo", "sólo", "únicamente",
    # 2026-12-02, fifth session: "remain unaffected / unimpaired / intact" = "is not limited / affected",
    # "is reserved to X" = "no one other than X may"
    "unaffected", "unimpaired", "intact", "reserved", "reservado", "reservada", "intacto", "intacta",
})
"""Words that carry a polarity by their meaning ("keep X confidential" = "not disclose X",
"survives" = "is not ended"): a claim that uses one its quotes do not may restate a negation
without any negation word, so a conflict it shows is a warning, not a removal."""

NUMBER_WORDS = frozenset({
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "fifteen",
    "twenty", "thirty", "forty", "fifty", "sixty", "ninety", "hundred", "thousand", "million", "first", "second",
    "uno", "una", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "quince", "veinte",
    "treinta", "sesenta", "noventa", "cien", "mil", "its", "from", "into", "onto", "upon", "within", "without",
})
"""Numbers are the facts check's (core.facts); these and a few prepositions carry no polarity."""

DUTY_MODALS = frozenset({"shall", "must", "will", "required", "obliged", "obligated", "deberá", "deberán", "debe",
                         "deben", "debera", "deberan"})
"""Modals of obligation: "shall X" against "need not X" is a duty against its absence."""

DUTY_VERBS = frozenset({"required", "obliged", "obligated", "compelled", "bound", "require", "requires",
                        "obligate", "obligates", "compel", "compels", "obligado", "obligada", "obligados", "obligadas"})
"""Words that impose a duty: under a negation ("no party shall be obliged to X", "nothing requires it to X")
they deny the duty, and X is left to the party (like "need not X"), not forbidden."""

DUTY_ACTIVE = frozenset({"require", "requires", "obligate", "obligates", "compel", "compels"})
"""Active duty verbs: their object comes before the "to" ("nothing requires *the Licensee* to X")."""

PERMISSION_MODALS = frozenset({"may", "can", "could", "podrá", "podrán", "podra", "podran", "puede", "pueden"})
""""may choose not to X" (a verb between the permission and the negation) leaves X to the party, like "need not X"."""

RELATIVES = frozenset({"which", "who", "whom", "whose", "cual", "cuales", "quien", "quienes", "cuyo", "cuya"})
"""Words that open a relative clause: what it says of its noun is described, not asserted or denied."""

SUBJECT_PRONOUNS = frozenset({"you", "it", "they", "we", "he", "she", "i"})
"""Pronouns that can be a clause's subject. After a noun and before a verb they open a relative clause
with its pronoun left out (a "contact clause": "any agreement [that] *you may have executed*", "code
[that] *it has removed*"; English grammar, e.g. Quirk et al. 1985, §17.12): the main clause's negation
does not reach it (added 2026-12-02, fifth session)."""

FRONTED = frozenset({"for", "even", "notwithstanding", "in", "upon", "on", "after", "at", "with", "without", "under",
                     "subject", "during", "despite", "regardless", "pursuant", "thereafter", "accordingly", "therefore",
                     "however", "otherwise", "furthermore", "moreover", "additionally", "except", "save", "absent"})
"""Words that open a fronted phrase before a clause's subject ("For the avoidance of doubt it may not assign",
"Even with approval they shall not sell"): a pronoun after such a phrase, before any verb, is the subject, not a
relative clause without its pronoun (:data:`SUBJECT_PRONOUNS`; added 2026-12-02 by the review)."""

REDUCED_PREPOSITIONS = frozenset({"with", "by", "under", "in", "to", "for", "on", "from", "pursuant", "hereunder",
                                  "thereunder", "herein"})
"""Words after a past participle that follows its noun ("an agreement *executed with* the Licensor",
"rights *granted under* this Agreement"): the participle opens a reduced relative clause, which
describes the noun (added 2026-12-02, fifth session)."""

LIGHT_VERBS = frozenset({"deemed", "intended", "construed", "considered", "interpreted", "treated", "regarded",
                         "considerado", "considerada", "entendido", "entendida", "interpretado", "interpretada"})
""""shall not be deemed to affect": the predicate is the verb after the raising verb, not the raising verb."""

SUBORDINATORS = frozenset({"if", "when", "whenever", "where", "while", "although", "though", "because", "whereas",
                           "si", "cuando", "aunque", "mientras", "porque"})
"""Words that open an adverbial clause ("If no program exists, Supplier will accept"): its comma ends it."""

PROVISO_NEXT = frozenset({"that", "however", ",", "further", "always", "though"})
""""provided" opens a proviso only before these ("provided that", "provided, however,");
"provided for in" is a participle."""

INCLUSION = frozenset({"include", "includes", "included", "cover", "covers", "covered", "comprise", "comprises",
                       "count", "incluye", "incluyen", "incluirá", "incluirán", "incluido", "incluida", "comprende",
                       "comprenden", "abarca", "cubre", "cubren"})
""""X shall not include Y" says Y is outside X: Y's words are arguments of a negated relation
("Y is excluded from X", "Y is not X"), compared weakly like a subject."""

COORDINATING = frozenset({"but", "however", "pero"})
""""but" ends a clause only after a comma or before a new clause ("accrued but untaken" does not)."""

PASSIVE_BANS = re.compile(r"^(?:prohibited|forbidden|barred|precluded|excluded|prohibid[oa]s?|excluid[oa]s?)$")
""""X is prohibited" = "shall not X": the subject of a clause whose predicate is a ban is what is negated."""

PERMISSIONS = frozenset({"permitted", "allowed", "authorized", "authorised", "permissible", "allowable",
                         "permitido", "permitida", "permitidos", "permitidas", "autorizado", "autorizada"})
""""X is not permitted" = "shall not X": with a negation before it, its clause's subject is what is negated."""
