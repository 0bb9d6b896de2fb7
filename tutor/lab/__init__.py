"""The lab: measurements that compare the mask families (regex, CFG, JSON Schema) on the real model."""
