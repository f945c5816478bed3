"""The login throttle's counts and the revoked tokens, kept in the database.

The count is one ``INSERT … ON CONFLICT DO UPDATE … RETURNING`` (SQLite ≥ 3.35 and
PostgreSQL speak it alike; MySQL and MariaDB say ``ON DUPLICATE KEY UPDATE`` and
read the row back): concurrent logins on any worker are all counted, and a window
that has ended starts again at 1. Expired rows are deleted as new ones come.
"""

from __future__ import annotations

from django.db import connection, transaction

from panel_core.tokens import revoked_until

from .models import LoginAttempt, RevokedToken


def _count_statement() -> str:
    meta = LoginAttempt._meta
    quote = connection.ops.quote_name
    table, key, attempts, expires_at = (
        quote(name) for name in (meta.db_table, "key", "attempts", "expires_at")
    )
    return (
        f"INSERT INTO {table} ({key}, {attempts}, {expires_at}) VALUES (%s, 1, %s) "
        f"ON CONFLICT ({key}) DO UPDATE SET "
        f"{attempts} = CASE WHEN {table}.{expires_at} <= %s THEN 1 "
        f"ELSE {table}.{attempts} + 1 END, "
        f"{expires_at} = CASE WHEN {table}.{expires_at} <= %s THEN %s "
        f"ELSE {table}.{expires_at} END "
        f"RETURNING {attempts}, {expires_at}"
    )


def _mysql_count_statement() -> str:
    # MySQL assigns in order: ``attempts`` still sees the old ``expires_at``.
    meta = LoginAttempt._meta
    quote = connection.ops.quote_name
    table, key, attempts, expires_at = (
        quote(name) for name in (meta.db_table, "key", "attempts", "expires_at")
    )
    return (
        f"INSERT INTO {table} ({key}, {attempts}, {expires_at}) VALUES (%s, 1, %s) "
        f"ON DUPLICATE KEY UPDATE "
        f"{attempts} = CASE WHEN {expires_at} <= %s THEN 1 ELSE {attempts} + 1 END, "
        f"{expires_at} = CASE WHEN {expires_at} <= %s THEN %s ELSE {expires_at} END"
    )


def count_attempt(key: str, *, window: int, now: int) -> tuple[int, int]:
    """Count one more login for ``key``: the attempts in its window, seconds left."""
    ends = now + window
    with transaction.atomic():
        LoginAttempt.objects.filter(expires_at__lte=now).delete()
        with connection.cursor() as cursor:
            if connection.vendor == "mysql":
                cursor.execute(_mysql_count_statement(), [key, ends, now, now, ends])
                row = LoginAttempt.objects.values_list("attempts", "expires_at")
                attempts, expires_at = row.get(key=key)
            else:
                cursor.execute(_count_statement(), [key, ends, now, now, ends])
                attempts, expires_at = cursor.fetchone()
    return int(attempts), max(1, int(expires_at) - now)


def clear_attempts(key: str) -> None:
    """Forget the logins counted for ``key`` (after a successful one)."""
    LoginAttempt.objects.filter(key=key).delete()


def revoke_token(jti: str, *, expires_at: int, now: int) -> None:
    """Refuse the token ``jti`` from now on (until it would have expired anyway)."""
    with transaction.atomic():
        RevokedToken.objects.filter(expires_at__lt=now).delete()
        RevokedToken.objects.bulk_create(
            [RevokedToken(jti=jti, expires_at=revoked_until(expires_at, now=now))],
            ignore_conflicts=True,
        )
