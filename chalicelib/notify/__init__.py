"""Mail: what each member is told (``notices``), rendered from Jinja2 templates
(``chalicelib.render``), handed to Amazon SES (``ses``). The outbox (services) decides
what is owed and receives the sender, so tests and the local runner can lend their own.
"""
