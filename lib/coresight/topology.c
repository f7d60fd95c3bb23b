/* placeholder: being written */
typedef int pp_placeholder_topology;
