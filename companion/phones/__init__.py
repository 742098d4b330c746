"""Phones: the MQTT mirror of the views, the brokers, per-game credentials, and the phone web app."""
