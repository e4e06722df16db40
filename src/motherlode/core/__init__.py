"""Game-independent machinery: the protocol, errors, chance helpers, records, geometry."""
