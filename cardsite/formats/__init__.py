"""The site's date formats, one per language (FORMAT_MODULE_PATH): every page shows a date,
or a date and time, the same way. Templates use DATE_FORMAT or DATETIME_FORMAT; the SHORT_
variants are the same, so nothing falls back to Django's own."""
