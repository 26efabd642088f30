"""The schema's revisions, oldest first by ``down_revision``."""
