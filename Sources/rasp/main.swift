print("rasp")
