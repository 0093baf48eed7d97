"""The Mobius rule set: its seam object, visibility (RULES §8), timeline (§2), full record."""
