"""The ``reference`` profile: readers and judges for reference articles (encyclopedia pages).

Openings, infoboxes, page footers, disambiguation entries, picture captions, records,
relations of people and works, party affiliation, stance, given names and spellings, and the
namesake-page judge of the edges. Nothing outside this package imports it: the profile
registry (``claims.profiles``) loads it by name when a source asks for ``profile: reference``.
"""
