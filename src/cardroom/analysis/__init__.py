"""The designer's figures: results folders read back (``folder``), figures with intervals
(``figures``, ``impact``, ``stats``), variants side by side (``compare``), and the report shown
on the terminal, as HTML (``html``), JSON and CSV (``report``). Behind ``cardroom analyze``,
``compare`` and ``sweep``; described in docs/analytics.md."""
