"""The open tournament record (issue 35): a tournament from its rules to its final classification
as one documented, versioned JSON (docs/registro.schema.json), signed by the site (Ed25519) so that
a copy can be checked offline. Names only: no document, phone or e-mail."""
