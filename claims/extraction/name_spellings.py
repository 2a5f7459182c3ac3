"""Spellings of one name in Latin letters: "Vasantha" and "Vasanta", "Abdullah Rahim" and "Abdulla
Rakha", "Mohammed" and "Mohamed".

Names from languages written in other scripts reach English text in several spellings. The
common variations of romanisation (Hunterian and the informal spellings of Indian names,
the romanisations of Arabic) are an "h" marking aspiration after a stop ("th"/"t",
"dh"/"d", "kh"/"k", "bh"/"b", "gh"/"g"), a final "h" after a vowel ("Allah"/"Alla"), and a
doubled letter written once ("Allarakha"/"Alarakha"). ``spelling_key`` drops those
differences from a word that no English dictionary knows; a dictionary word keeps its
spelling ("bath" is not "bat").
"""

from __future__ import annotations

import re
from functools import lru_cache

from claims.extraction.identity import is_dictionary_word

_ASPIRATED = re.compile(r"(?<=[tdkbg])h")
_FINAL_H = re.compile(r"(?<=[aeiou])h$")
_DOUBLED = re.compile(r"(.)\1+")


@lru_cache(maxsize=65536)
def spelling_key(word: str) -> str:
    """``word`` (lowercase) with the romanisation's optional letters dropped; a dictionary
    word, a short word or one with digits unchanged."""
    if len(word) < 4 or not word.isalpha() or is_dictionary_word(word):
        return word
    key = _FINAL_H.sub("", _ASPIRATED.sub("", word))
    return _DOUBLED.sub(r"\1", key)


@lru_cache(maxsize=65536)
def spelling_keys(name: str) -> str:
    """A name's words each in spelling-key form, joined as written ("devatha (1941 film)" ->
    "devata (1941 film)")."""
    return re.sub(r"[^\W\d_]+", lambda m: spelling_key(m.group(0)), name)
