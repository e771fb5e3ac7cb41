"""Single-bug versions of this service (not in the original; see ADAPTED.md, "CORPUS_BUG").

CORPUS_BUG=<name> turns on exactly one planted bug; unset or empty, the service is the adapted original.
"""

import os

KNOWN = (
    "delete_noop",  # DELETE /todo/item/{id} answers 204 and deletes nothing
    "put_ignores_body",  # PUT /todo/item/{id} answers the stored item unchanged
    "patch_resets_unset",  # PATCH /todo/item/{id} resets is_done to its create default (false) when not sent
    "token_unsigned",  # the bearer token's signature is never checked
    "hash_served",  # GET /account/oauth2/instrospect serves the user's password_hash
)

BUG = os.environ.get("CORPUS_BUG", "")
if BUG and BUG not in KNOWN:
    raise RuntimeError(f"CORPUS_BUG={BUG!r}: not one of {', '.join(KNOWN)}")
