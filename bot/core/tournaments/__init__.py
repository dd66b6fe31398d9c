"""Tournaments: pairing (`pairing`), standings (`standings`) and the flow of an event (`service`),
with no Discord here: the cogs open the rounds' tables and show the cards."""
