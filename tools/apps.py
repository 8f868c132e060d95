"""The tool harness: the catalog, the mandate, proposals, confirmations and the trace."""

from django.apps import AppConfig


class ToolsConfig(AppConfig):
    name = "tools"
    verbose_name = "Tool harness"
