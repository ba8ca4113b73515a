"""Places to play, on top of the engine and the bots: the table runner (seats, deals,
agents, records, resume), the terminal game and bot-vs-bot simulation. The web server
and the terminal are two faces on the same ``table``."""
