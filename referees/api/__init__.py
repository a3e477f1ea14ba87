"""API v1 of the jueces (AMM chapter V): incidents (5.3, 5.3.a) and sanctions (5.4, 5.4.a), under
/api/v1/tournaments/<slug>/. Thin: referees.services decide who may and write, referees.selectors
read; errors are Spanish and keyed by field (torneo.api.errors)."""
