"""The two archive formats, each defined once: 0.10 (:mod:`.v010`, what the crawler writes)
and upstream's 0.13 (:mod:`.v013_schema`, its DDL; :mod:`.v013`, its tables presented to
the queries as the 0.10 tables), with what both derive from stored columns (content-type
categories, error kinds)."""
