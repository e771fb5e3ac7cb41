"""EmailStr without email-validator (adaptation, see ADAPTED.md).

pydantic 2's EmailStr needs email-validator >= 2, which is not available (the Debian package is 1.3, and with
it importable FastAPI itself fails to import). This is pydantic 2.13's EmailStr and validate_email (MIT,
pydantic/networks.py) with the call to email-validator replaced by `_check`, a few of email-validator 2's own
syntax checks with its own texts; the JSON schema and the error type and message are pydantic's.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import PydanticCustomError, core_schema

MAX_EMAIL_LENGTH = 2048


def _build_pretty_email_regex() -> re.Pattern[str]:
    name_chars = r'[\w!#$%&\'*+\-/=?^_`{|}~]'
    unquoted_name_group = rf'((?:{name_chars}+\s+)*{name_chars}+)'
    quoted_name_group = r'"((?:[^"]|\")+)"'
    email_group = r'<(.+)>'
    return re.compile(rf'\s*(?:{unquoted_name_group}|{quoted_name_group})?\s*{email_group}\s*')


pretty_email_regex = _build_pretty_email_regex()


def validate_email(value: str) -> tuple[str, str]:
    if len(value) > MAX_EMAIL_LENGTH:
        raise PydanticCustomError(
            'value_error',
            'value is not a valid email address: {reason}',
            {'reason': f'Length must not exceed {MAX_EMAIL_LENGTH} characters'},
        )
    m = pretty_email_regex.fullmatch(value)
    name: str | None = None
    if m:
        unquoted_name, quoted_name, value = m.groups()
        name = unquoted_name or quoted_name
    email = value.strip()
    reason = _check(email)
    if reason:
        raise PydanticCustomError('value_error', 'value is not a valid email address: {reason}', {'reason': reason})
    local_part, domain = email.rsplit('@', 1)
    email = local_part + '@' + domain.lower()
    name = name or local_part
    return name, email


_LOCAL = re.compile(r"[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~.]+")
_LABEL = re.compile(r'[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?')


def _check(email: str) -> str | None:
    if '@' not in email:
        return 'An email address must have an @-sign.'
    local_part, domain = email.rsplit('@', 1)
    if not local_part:
        return 'There must be something before the @-sign.'
    if not domain:
        return 'There must be something after the @-sign.'
    if not _LOCAL.fullmatch(local_part) or local_part.startswith('.') or local_part.endswith('.') or '..' in local_part:
        return 'The email address contains invalid characters before the @-sign.'
    if '.' not in domain:
        return 'The part after the @-sign is not valid. It should have a period.'
    if not all(_LABEL.fullmatch(label) for label in domain.split('.')):
        return 'The part after the @-sign is not valid.'
    return None


class EmailStr:
    @classmethod
    def __get_pydantic_core_schema__(cls, _source: type[Any], _handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(cls._validate, core_schema.str_schema())

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: core_schema.CoreSchema, handler: Any) -> Any:
        field_schema = handler(core_schema)
        field_schema.update(type='string', format='email')
        return field_schema

    @classmethod
    def _validate(cls, input_value: str, /) -> str:
        return validate_email(input_value)[1]
