"""`make bench`: the assistant's speed as ratios against baselines measured in the same run."""
