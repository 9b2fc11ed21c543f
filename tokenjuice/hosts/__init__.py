"""Integrations with agent hosts: one adapter module per host, the hook process, post-run
compaction, install/uninstall/doctor, and (in `permissions/`) readers of each host's own
permission settings.

The words every host module shares are declared here, so that adapters, permission
readers and install/doctor import them without importing one another, and the hook pays
no extra module for them: what a host's own rules say about a command, and how healthy
an integration is."""

#: The user's own rules about a command, as far as tokenjuice can read them.
DENY, ASK, ALLOW, NONE = "deny", "ask", "allow", "none"
#: Health of one integration.
OK, WARN, BROKEN, DISABLED = "ok", "warn", "broken", "disabled"
