print("rasp-bench")
