"""What a learner reports after each epoch: the losses and whether it is the best so far."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class EpochReport:
    """One epoch's losses (both learners report these; the net trainer adds its speed)."""

    epoch: int
    """1-based epoch number."""
    train: float
    """Mean training loss over the epoch (the weights moving during it)."""
    validation: float
    """Loss on the held-out rows after the epoch (the training loss if none are held out)."""
    best: bool
    """Whether this epoch's weights are the best so far."""
