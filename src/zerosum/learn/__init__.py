"""Learning to play from self-play: a network guiding MCTS (the AlphaZero line), its training
log, and learned evaluations (TD(lambda) for games with dice)."""
