"""The words every host module shares: what a host's own rules say about a command and
how healthy an integration is. A leaf module: the adapters, the permission readers and
install/doctor (`manage.py`, `jsonhooks.py`) all import it, and it imports nothing."""

#: The user's own rules about a command, as far as tokenjuice can read them.
DENY, ASK, ALLOW, NONE = "deny", "ask", "allow", "none"
#: Health of one integration.
OK, WARN, BROKEN, DISABLED = "ok", "warn", "broken", "disabled"
