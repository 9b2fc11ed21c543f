"""Integrations with agent hosts (Cursor)."""
