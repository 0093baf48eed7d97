"""The duel rule set (RULES-DUEL): two sides, played move by move, against a person or the CPU."""
