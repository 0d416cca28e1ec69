"""The match on flash: an append-only, checksummed journal, its summaries and blobs."""
