"""Learning to play from self-play: networks, training, and learned evaluations (the optional
`learn` extra, JAX and optax). `td`: a value function learned by temporal differences (TD(λ),
the line of Samuel and Tesauro), checked exactly on Pig."""
