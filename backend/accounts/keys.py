"""The key a name or an e-mail address is compared by (User.username_key, email_key; lookalikes.py builds on it)."""

import unicodedata


def fold(text: str) -> str:
    """The comparison key of a name or address: NFKC, then Unicode case folding.

    Done in Python so that every database applies one rule: SQLite's lower()
    and LIKE only fold ASCII, so "Árpád" and "ÁRPÁD" would be two accounts
    there. The second NFKC pass keeps the key normalised after folding
    (Unicode's NFKC_Casefold, closely enough for names).
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
