"""Word lists of the spaCy extractor: closed-class cues, role nouns and irregular verbs.

Kept apart from the rules so the rules read as code; every list is a public,
document-independent constant (nothing here depends on a corpus).
"""

from __future__ import annotations

from relguard.wordlist import words

MODALS = words("would could might may should shall will must 'd 'll wo")
HEDGES = words(
    "allegedly reportedly possibly perhaps probably supposedly apparently maybe presumably purportedly likely never not"
)
COPULAS = words("be become remain")
LEADING_DETS = words("the The THE")
NON_PERSON = words("ORG GPE LOC FAC PRODUCT EVENT WORK_OF_ART LAW")
PERSON_ONLY = words("PERSON")
#: Pronoun -> entity types it may refer to (resolved only when one candidate is in reach).
PRONOUNS: dict[str, frozenset[str]] = {
    **dict.fromkeys(words("he him his himself she her hers herself"), PERSON_ONLY),
    **dict.fromkeys(words("it its itself"), NON_PERSON),
    **dict.fromkeys(words("they them their themselves"), words("ORG")),
}
#: "the company" and friends -> the entity type they refer back to.
NOMINALS: dict[str, str] = {
    **dict.fromkeys(
        words("""company firm corporation band group team club university college school label party organization
        organisation agency newspaper magazine network airline bank studio clinic hospital festival academy institute
        foundation charity council committee ministry trust orchestra museum"""),
        "ORG",
    ),
    **dict.fromkeys(words("city town village country state nation province municipality county capital"), "GPE"),
    **dict.fromkeys(words("river lake mountain island region valley sea"), "LOC"),
    **dict.fromkeys(words("film movie album song novel book series show play painting opera single"), "WORK_OF_ART"),
}
#: Other types a nominal may refer to besides its NOMINALS type ("the festival" may be an EVENT).
NOMINAL_ALSO: dict[str, frozenset[str]] = {
    **dict.fromkeys(words("festival"), words("EVENT")),
    **dict.fromkeys(words("hospital clinic museum academy"), words("FAC")),
}
#: Place nouns: "a city in France" / "a suburb of Paris" -> located_in.
PLACE_NOUNS = words(
    """city town village hamlet suburb municipality county district region province commune neighborhood
    neighbourhood borough parish community area locality settlement island river lake mountain state
    territory port resort park"""
)
PLACE_PREPS = words("in of on near within")
#: Nouns a location phrase passes through: "in the north of", "in the state of".
AREA_NOUNS = words(
    """north south east west northeast northwest southeast southwest center centre heart outskirts part
    suburbs suburb city town village state province county region district area capital"""
)
#: Parts and directions a location phrase passes through without describing the place ("in the north of").
DIRECTION_NOUNS = words(
    """north south east west northeast northwest southeast southwest north-east north-west south-east south-west
    center centre heart outskirts part parts suburbs middle edge side coast border"""
)
#: Capitalized words that open a sentence without naming anything ("However Ana Ruiz ...", "The Rockets").
NAME_STOP_WORDS = words(
    """the a an in on at after before however but and or he she it they his her its their this that these those
    when while since during for from with by of to as if yesterday today then later also meanwhile"""
)
#: Words that give an entity another name ("better known as", "stylized as"): aliases, never relations.
ALIAS_WORDS = words("known stylized stylised spelled spelt nicknamed aka dubbed abbreviated transliterated")
#: Words right before a birth name ("X (born Y; 1951)", "née Y"): an alias where the name follows at once, not
#: where a place comes first ("a London born playwright").
BIRTH_NAME_WORDS = words("born née nee")
#: Predicates that name the same entity twice ("X, also known as Y"): aliases, not relations.
IDENTITY = words("known_as also_known_as referred_as referred_to_as called renamed renamed_as named_as aka")
#: Role nouns allowed without a preposition ("Acme's founder Alice", "Apple CEO Tim Cook").
ROLE_NOUNS = words(
    """founder cofounder co-founder ceo president chairman chairwoman chair director member leader owner chief
    head captain coach manager wife husband son daughter father mother brother sister spouse partner widow
    minister mayor governor secretary spokesman spokeswoman spokesperson employee executive editor producer
    guitarist drummer vocalist bassist singer frontman keyboardist cto cfo coo chancellor premier king queen
    prince princess successor predecessor teammate colleague niece nephew uncle aunt grandson granddaughter
    grandfather grandmother cousin boss deputy treasurer principal dean professor student pupil rector bishop
    archbishop pastor general commander senator ambassador consul representative delegate commissioner councillor
    councilor congressman congresswoman assemblyman governor-general viceroy emperor empress sultan pope"""
)
#: Adjectives that are part of a role ("chief executive", "late wife", "former president"), not a description.
ROLE_MODIFIERS = words(
    """chief late former founding managing executive vice deputy senior junior assistant general first elder
    younger eldest youngest principal lead head acting interim honorary co-founding associate adjunct emeritus
    current then future longtime long-time sole joint"""
)
ORG_SUFFIXES = words(
    """corp corp. corporation inc inc. incorporated ltd ltd. limited llc plc co co. company group gmbh ag sa s.a.
    nv n.v. holdings holding"""
)

#: Irregular verbs: lemma -> (past tense, past participle).
IRREGULAR: dict[str, tuple[str, str]] = {
    lemma: (past, part)
    for lemma, past, part in (
        row.split(":")
        for row in words(
            """arise:arose:arisen be:was:been bear:born:born beat:beat:beaten become:became:become
        begin:began:begun bend:bent:bent bind:bound:bound bite:bit:bitten blow:blew:blown break:broke:broken
        bring:brought:brought build:built:built burn:burnt:burnt buy:bought:bought catch:caught:caught
        choose:chose:chosen come:came:come cost:cost:cost cut:cut:cut deal:dealt:dealt dig:dug:dug
        do:did:done draw:drew:drawn drink:drank:drunk drive:drove:driven eat:ate:eaten fall:fell:fallen
        feed:fed:fed feel:felt:felt fight:fought:fought find:found:found flee:fled:fled fly:flew:flown
        forbid:forbade:forbidden forget:forgot:forgotten forgive:forgave:forgiven freeze:froze:frozen
        get:got:gotten give:gave:given go:went:gone grow:grew:grown hang:hung:hung have:had:had hear:heard:heard
        hide:hid:hidden hit:hit:hit hold:held:held hurt:hurt:hurt keep:kept:kept know:knew:known lay:laid:laid
        lead:led:led leave:left:left lend:lent:lent let:let:let lie:lay:lain light:lit:lit lose:lost:lost
        make:made:made mean:meant:meant meet:met:met mislead:misled:misled overcome:overcame:overcome
        overtake:overtook:overtaken pay:paid:paid put:put:put quit:quit:quit read:read:read rebuild:rebuilt:rebuilt
        rewrite:rewrote:rewritten ride:rode:ridden ring:rang:rung rise:rose:risen run:ran:run say:said:said
        see:saw:seen seek:sought:sought sell:sold:sold send:sent:sent set:set:set shake:shook:shaken
        shine:shone:shone shoot:shot:shot show:showed:shown shut:shut:shut sing:sang:sung sink:sank:sunk
        sit:sat:sat sleep:slept:slept slide:slid:slid speak:spoke:spoken spend:spent:spent spin:spun:spun
        split:split:split spread:spread:spread stand:stood:stood steal:stole:stolen stick:stuck:stuck
        strike:struck:struck swear:swore:sworn sweep:swept:swept swim:swam:swum swing:swung:swung take:took:taken
        teach:taught:taught tear:tore:torn tell:told:told think:thought:thought throw:threw:thrown
        undergo:underwent:undergone understand:understood:understood undertake:undertook:undertaken
        upset:upset:upset wake:woke:woken wear:wore:worn weave:wove:woven weep:wept:wept win:won:won
        wind:wound:wound withdraw:withdrew:withdrawn write:wrote:written co-write:co-wrote:co-written
        oversee:oversaw:overseen broadcast:broadcast:broadcast foresee:foresaw:foreseen"""
        )
    )
}
DOUBLING = words(
    """admit commit submit permit omit emit transmit refer prefer occur recur control compel propel expel
    equip regret transfer confer defer deter incur patrol"""
)

FUNCTION_WORDS = words("is are was were be been being am has have had do does did the a an to also later then first")
#: Surname particles: "Pieter de Vries" is referred back to as "De Vries".
NAME_PARTICLES = words("de da di du del della der den des la le van von ter ten bin ibn al el st st. mac")
#: Last words of organization names the small NER model often labels PERSON ("Quantix Labs", "Atlas Shipping").
ORG_HEADS = words(
    """labs lab laboratories shipping systems records books airlines airways bank group holdings partners
    technologies technology industries motors energy energie capital ventures foundation institute university
    college academy hospital clinic council association society committee commission agency company corporation
    corp inc ltd llc plc gmbh ag pharmaceuticals solutions software networks media entertainment studios
    publishing press trust fund insurance logistics airport railways railway"""
)
#: Last words of a place's name: "Regal Mountain", "Olza River", "Morogoro Region" are places whatever the NER says.
PLACE_HEADS = words(
    """mountain mountains mount peak peaks river lake island islands valley region county province district
    bay creek glacier canyon desert forest park peninsula strait sea ocean gulf pass range hill hills"""
)
#: Prepositions that compare, exemplify or concede rather than relate: "funds clinics like X", "taller than X".
NON_RELATIONAL_PREPS = words("like unlike than including excluding despite except per via besides notwithstanding")
#: Light nouns of support-verb idioms, kept in the predicate: "took place in", "took part in", "played a role in".
LIGHT_NOUNS = words("place part role charge control office power command care advantage shape")
#: Bodies one serves on: "serves on the board of Y" -> ``served_on_board_of``.
BODY_NOUNS = words("board panel council committee staff faculty jury")
#: Abbreviations that open what follows them (a title before a name, "Ref." before a reference): a full stop after
#: one never ends a sentence, whatever the next word's case ("Ref. C-2025-017", "Dr. Okonjo"); the abbreviations of
#: a title open the rest of it ("Sr. Vice President", "Mgr. Operations", "Asst. Dir. Finance").
OPENING_ABBREVIATIONS = words(
    """ref mr mrs ms dr prof st fig figs vol art sec dept tel rev hon capt lt col sgt gen mt cf approx incl attn encl
    sr snr mgr mngr dir asst exec pres assoc supt"""
)
#: Abbreviations that open a number ("No. 5", "pp. 12"): a full stop after one ends no sentence before a digit.
NUMBER_ABBREVIATIONS = words("no nos nr pp p")
#: Words that alone are a name's head or a kind the NER cut a name down to ("Library" of "Clinton Presidential
#: Library", "Television", "City"): one such word is no name of its own.
GENERIC_NAMES = words(
    """city cities islands island group groups library district fort kingdom school system television cathedral
    interior music metropolitan southern western eastern northern allied united national international order
    nation nations division core super architecture illustration purpose voices fight children detail detective
    lady lieutenant tomb tests vocals cluster businessman entertainments gateway hub commerce state county
    province region university college company department ministry council committee church museum station
    street park palace castle tower hall square bridge airport army navy band club team league series film
    album song show award prize cup festival empire republic government court central north south east west
    social media narrative program programme project report"""
)
#: Ranks and offices of a ruler or noble ("King", "Hereditary Prince", "Holy Roman Emperor"): a name made of them
#: alone names the office, not its holder, and one of its head words must be among them.
RANK_HEADS = words(
    """king queen prince princess emperor empress duke duchess count countess baron baroness earl marquess marquis
    margrave margravine landgrave archduke archduchess viscount viscountess sultan sultana tsar tsarina czar czarina
    shah emir caliph khedive pharaoh pope elector regent custodian dauphin infante infanta consort heir"""
)
RANK_MODIFIERS = words("hereditary crown holy roman royal grand dowager palatine apparent presumptive mother")
RANKS = RANK_HEADS | RANK_MODIFIERS
#: The ordinal before a peer's rank after his name ("Henry Beaufort, [3rd] Duke of Somerset", "[First] Baron"), which
#: keeps the title in the name (:func:`~relguard.extract.spacy.spelled.continues_name`) and out of its typing.
PEER_ORDINAL = r"\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth"
