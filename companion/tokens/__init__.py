"""NFC tokens: the registry (tag UID -> what the token is) and the routing of taps to the table."""
