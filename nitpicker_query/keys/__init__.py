"""What identifies a page and what it signals, as pure functions over its values: keys,
shape keys, signatures, trap and legit signals, exclusion patterns, folded search text.
The crawler's soft cap and the read side's cluster queries import these, never a copy."""
