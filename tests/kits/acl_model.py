"""A model of the phone ACL of docs/mqtt.md as pure functions, for property tests.

The brokers get these rules as `%u` patterns (`companion.phones.topics.acl_patterns`, Mosquitto's ACL
file); this model reads the same patterns, so hypothesis can try many users and topics without a broker.
A subscription counts as allowed only if *every* topic its filter can match is readable: what a phone
may subscribe to never reaches beyond what it may read. The live tests hold Mosquitto to the same rules.
"""

from __future__ import annotations

from companion.phones.topics import REFEREE_USER, VERSION, acl_patterns


def _levels(pattern: str, user: str) -> list[str]:
    return pattern.replace("%u", user).split("/")


def _covers(pattern: list[str], topic: list[str], *, filter_: bool) -> bool:
    """Whether `topic` (a topic name, or a filter if `filter_`) lies inside `pattern` (only '+' wildcards)."""
    if len(pattern) != len(topic):
        return False
    for want, got in zip(pattern, topic, strict=True):
        if filter_ and "#" in got:
            return False
        if want == "+":
            continue
        if got != want:  # a '+' in the filter where the pattern has a fixed level reaches beyond it
            return False
    return True


def _user_ok(user: str) -> bool:
    return bool(user) and not any(c in user for c in "/+#")


def may(prefix: str, user: str, access: str, topic: str, *, filter_: bool = False) -> bool:
    """`access` is "read" or "write"; `topic` a topic name, or with `filter_` a subscription filter."""
    if not _user_ok(user):
        return False
    if user == REFEREE_USER:
        head = f"{prefix}/{VERSION}"
        return topic == head or topic.startswith(head + "/")
    levels = topic.split("/")
    return any(
        kind == access and _covers(_levels(pattern, user), levels, filter_=filter_)
        for kind, pattern in acl_patterns(prefix)
    )


def may_subscribe(prefix: str, user: str, topic_filter: str) -> bool:
    return may(prefix, user, "read", topic_filter, filter_=True)


def may_receive(prefix: str, user: str, topic: str) -> bool:
    return may(prefix, user, "read", topic)


def may_publish(prefix: str, user: str, topic: str) -> bool:
    return may(prefix, user, "write", topic)
