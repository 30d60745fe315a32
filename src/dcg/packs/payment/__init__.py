"""Payments: Stripe."""
