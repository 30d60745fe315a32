"""Stripe: deleting customers and products, cancelling subscriptions, refunds, Connect accounts."""

from dcg.model import Pack, Rule
from dcg.packs._http import POSTS, sends

# `stripe [global flags] ` (--api-key K, --live, --project-name P, …).
_STRIPE = r"^stripe\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"
_API = r"api\.stripe\.com/v1/"

PACK = Pack(
    "payment.stripe",
    description="Stripe CLI and API: deletions, subscription cancels, refunds, payouts, accounts",
    rules=(
        Rule(
            "account-delete",
            severity="critical",
            pattern=r"(?:"
            + _STRIPE
            + r"(?:accounts\s(?:delete|reject)\b|delete\s/?v1/accounts/)|"
            + sends("DELETE")
            + _API
            + r"accounts/)",
            reason="Deleting or rejecting a Stripe Connect account",
            explanation="The connected account can no longer take payments or receive "
            "payouts; a rejected account cannot be reactivated, and deletion removes it "
            "from the platform.",
            alternative="Pause payouts or capabilities instead, and check its balance first.",
            blocks=(
                "stripe accounts delete acct_1032D82eZvKYlo2C",
                "stripe accounts reject acct_1 --reason fraud",
            ),
            allows=("stripe accounts retrieve acct_1032D82eZvKYlo2C", "stripe accounts list"),
        ),
        Rule(
            "cancel-subscription",
            severity="high",
            pattern=r"(?:"
            + _STRIPE
            + r"(?:subscriptions\scancel\b|delete\s/?v1/subscriptions/)|"
            + sends("DELETE")
            + _API
            + r"subscriptions/)",
            reason="Cancelling a customer's Stripe subscription",
            explanation="Cancellation is immediate and final: the customer stops being "
            "billed and loses the service, and a cancelled subscription cannot be "
            "reactivated, only replaced by a new one.",
            alternative="Cancel at period end (update with cancel_at_period_end=true) or pause "
            "collection instead.",
            blocks=(
                "stripe subscriptions cancel sub_1MowQVLkdIwHu7ix",
                "stripe delete /v1/subscriptions/sub_1",
            ),
            allows=(
                "stripe subscriptions retrieve sub_1MowQVLkdIwHu7ix",
                "stripe subscriptions list --customer cus_1",
            ),
        ),
        Rule(
            "money-out",
            severity="high",
            pattern=r"(?:" + _STRIPE + r"(?:(?:refunds|payouts|transfers)\screate\b"
            r"|post\s/?v1/(?:refunds|payouts|transfers)\b)|"
            + POSTS
            + _API
            + r"(?:refunds|payouts|transfers)(?:[?\s]|$))",
            reason="Creating a refund, payout or transfer moves real money",
            explanation="In live mode the money leaves the account; refunds and transfers to "
            "connected accounts cannot be taken back by the platform on its own.",
            alternative="Try it in test mode first and double-check the amount and target.",
            blocks=(
                "stripe refunds create --charge ch_1 --amount 1000",
                "stripe post /v1/payouts -d amount=5000 -d currency=usd",
            ),
            allows=("stripe refunds list", "stripe payouts retrieve po_1"),
        ),
        Rule(
            "delete",
            severity="high",
            pattern=r"(?:"
            + _STRIPE
            + r"(?:[a-z_]+\sdelete\b|delete\s)|"
            + sends("DELETE")
            + _API
            + ")",
            reason="Deleting Stripe customers, products, coupons, webhooks or other objects",
            explanation="A deleted customer loses its payment methods and active "
            "subscriptions; deleted webhook endpoints stop your integration from hearing "
            "about payments; deletions cannot be undone.",
            alternative="Retrieve the object first and keep its JSON; archive products "
            "(active=false) instead of deleting.",
            blocks=(
                "stripe customers delete cus_NffrFeUfNV2Hib",
                "stripe webhook_endpoints delete we_1",
                "curl https://api.stripe.com/v1/customers/cus_1 -u sk_test_x: -X DELETE",
            ),
            allows=(
                "stripe customers retrieve cus_NffrFeUfNV2Hib",
                "stripe products update prod_1 --active=false",
            ),
        ),
        Rule(
            "void-invoice",
            severity="medium",
            pattern=_STRIPE + r"invoices\s(?:void|mark_uncollectible)\b",
            reason="Voiding an invoice or marking it uncollectible",
            explanation="A voided invoice can never be paid or reopened; marking it "
            "uncollectible writes the amount off.",
            alternative="Issue a credit note for a partial correction instead.",
            blocks=(
                "stripe invoices void in_1MtHbELkdIwHu7ix",
                "stripe invoices mark_uncollectible in_1",
            ),
            allows=(
                "stripe invoices retrieve in_1MtHbELkdIwHu7ix",
                "stripe invoices finalize_invoice in_1",
            ),
        ),
    ),
)
