"""Mail members send back: the reply address, reading a real message, the commands in it.

Pure but for the signing key (``address``); below services, beside notify."""
