"""The shipped tagger and dependency parser (``model/``) and the structural readers over its
parse (``syntax``: subject, predicate, negation scope, number roles, lists, comparisons,
changes).

No extraction path runs the parser: the rules read numbers, units, dates and keys on their
own, and they won where the two were compared (docs/MODEL.md, "Rules vs parse"). The parser
and its readers stay here, outside ``claims/extraction``, for the office cases they were
built for once a dev figure shows they pay. ``make model`` retrains it.
"""
