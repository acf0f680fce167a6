"""Money at the team challenge (E5): whole cents, shown as dollars."""


def money(cents: int) -> str:
    """12.5 dollars as "$12.50": whole cents in, never a float."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(int(cents)), 100)
    return f"{sign}${whole:,}.{part:02d}"
