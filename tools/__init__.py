"""The tool harness: everything between the model's tool calls and the domain's services.
It imports nothing of the chat: a proposal's conversation is a foreign key named by its string."""
