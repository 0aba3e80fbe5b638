"""Learning to play from self-play: training, its log, networks and learned evaluations."""
