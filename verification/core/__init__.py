"""The verification framework: claim records, statuses, proof programs and their links to code."""
