"""Implementations written for the project, faulty on purpose or correct, that the report's
audits section (and the tests) run the audits on."""
