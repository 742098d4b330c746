"""Skeleton for the next reader driver: copy the folder, rename, fill in (see README.md)."""
