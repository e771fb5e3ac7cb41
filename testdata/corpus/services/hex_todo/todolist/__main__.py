from todolist import start_web_server


start_web_server()
