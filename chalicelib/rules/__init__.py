"""The games' rules as pure libraries, one package per rule book: ``mobius`` (RULES.md),
``classic`` (RULES-CLASSIC.md) and ``duel`` (RULES-DUEL.md). Nothing here reads storage,
the clock or the network; randomness comes in as an argument."""
