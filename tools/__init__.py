"""The tool harness: everything between the model's tool calls and the domain's services.
It depends on the chat only through the conversation a proposal belongs to."""
