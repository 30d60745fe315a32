"""Email delivery services: Amazon SES, SendGrid, Mailgun and Postmark."""
