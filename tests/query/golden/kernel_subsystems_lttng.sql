-- shared: ctf/bug446190
SELECT * FROM kernel_subsystems() WHERE owner_type = 'all' ORDER BY subsystem;
SELECT owner, subsystem, events, states, time_ns FROM kernel_subsystems() WHERE owner_type <> 'all'
  ORDER BY time_ns DESC, events DESC, owner, subsystem LIMIT 10;
