"""Unicode NFKC_Casefold, the folding ICU (and so MindSpore's text.CaseFold) applies."""
import bisect
import unicodedata

# Default_Ignorable_Code_Point ranges (Unicode DerivedCoreProperties.txt), inclusive; NFKC_Casefold maps them to
# nothing. Python's unicodedata has no accessor for this property, so the table is spelled out here.
_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
_STARTS = [lo for lo, _ in _IGNORABLE]


def is_default_ignorable(ch: str) -> bool:
    """Whether ``ch`` is a Default_Ignorable_Code_Point."""
    cp = ord(ch)
    i = bisect.bisect_right(_STARTS, cp) - 1
    return i >= 0 and cp <= _IGNORABLE[i][1]


def nfkc_casefold(text: str) -> str:
    """Ignorables dropped, NFKC, full case folding, NFKC again (folding can leave unnormalized sequences):
    'Straße ＡＢＣ Ⅻ' -> 'strasse abc xii'. Ignorables go before normalizing (so a soft hyphen between a letter
    and its accent does not stop them composing) and after (NFKC maps some characters onto ignorables)."""
    if text.isascii():
        return text.lower()
    text = "".join(c for c in text if not is_default_ignorable(c))
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    return "".join(c for c in folded if not is_default_ignorable(c))
