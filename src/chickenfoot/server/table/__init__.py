"""A table and its collaborators: the actor (:mod:`.actor`) that owns a match and takes typed commands
(:mod:`.commands`) one at a time, the narrow ports its collaborators see and the world it sees
(:mod:`.ports`), and the collaborators themselves. It sees storage, and the cluster only through
the ports it declares."""
